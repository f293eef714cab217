#include "app/io/safetensors.h"

#include <cmath>
#include <cstring>
#include <nlohmann/json.hpp>

#include "app/io/file_util.h"

namespace attn::io {

using nlohmann::json;

float half_to_float(uint16_t bits) {
    const uint32_t sign = (bits >> 15) & 1u, exponent = (bits >> 10) & 0x1fu, mantissa = bits & 0x3ffu;
    float magnitude;
    if (exponent == 0) magnitude = std::ldexp(static_cast<float>(mantissa), -24);  // zero or subnormal
    else if (exponent == 31) magnitude = mantissa ? std::nanf("") : INFINITY;
    else magnitude = std::ldexp(static_cast<float>(mantissa | 0x400u), static_cast<int>(exponent) - 25);
    return sign ? -magnitude : magnitude;
}

float bfloat16_to_float(uint16_t bits) {
    const uint32_t wide = static_cast<uint32_t>(bits) << 16;  // bfloat16 is the top half of a float32
    float f;
    std::memcpy(&f, &wide, sizeof f);
    return f;
}

namespace {

// Bounds every size computed from a header (2^31 floats = 8 GiB).
constexpr uint64_t kMaxElements = uint64_t{1} << 31;
constexpr uint64_t kMaxDim = uint64_t{1} << 31;

size_t dtype_size(const std::string& dtype) {
    if (dtype == "F32") return 4;
    if (dtype == "F16" || dtype == "BF16") return 2;
    if (dtype == "F64") return 8;
    return 0;
}

std::vector<float> to_float32(const char* data, size_t count, const std::string& dtype) {
    std::vector<float> out(count);
    for (size_t i = 0; i < count; ++i) {
        if (dtype == "F32") {
            std::memcpy(&out[i], data + 4 * i, 4);
        } else if (dtype == "F64") {
            double d;
            std::memcpy(&d, data + 8 * i, 8);
            out[i] = static_cast<float>(d);
        } else {
            uint16_t bits;
            std::memcpy(&bits, data + 2 * i, 2);
            out[i] = dtype == "F16" ? half_to_float(bits) : bfloat16_to_float(bits);
        }
    }
    return out;
}

}  // namespace

Result<NamedTensors> decode_safetensors(const std::string& bytes, const std::string& what) {
    using R = Result<NamedTensors>;
    if (bytes.size() < 8) return R::failure(Message("error.safetensors.too_short", {{"what", what}}));
    uint64_t header_len = 0;
    for (int i = 7; i >= 0; --i) header_len = header_len << 8 | static_cast<unsigned char>(bytes[static_cast<size_t>(i)]);
    if (header_len > bytes.size() - 8)
        return R::failure(Message("error.safetensors.header_past_end", {{"what", what}, {"length", header_len}, {"bytes", bytes.size()}}));
    json header;
    try {
        header = json::parse(bytes.begin() + 8, bytes.begin() + 8 + static_cast<std::ptrdiff_t>(header_len));
    } catch (const json::exception& e) {
        return R::failure(Message("error.safetensors.malformed_json", {{"what", what}, {"reason", e.what()}}));
    }
    if (!header.is_object()) return R::failure(Message("error.safetensors.not_object", {{"what", what}}));
    const size_t data_start = 8 + header_len;
    const size_t data_size = bytes.size() - data_start;

    NamedTensors tensors;
    for (auto it = header.begin(); it != header.end(); ++it) {
        if (it.key() == "__metadata__") continue;
        const Message where("error.safetensors.where", {{"what", what}, {"tensor", it.key()}});
        const json& entry = it.value();
        if (!entry.is_object() || !entry.contains("dtype") || !entry.contains("shape") || !entry.contains("data_offsets"))
            return R::failure(Message("error.safetensors.fields", {{"where", where}}));
        if (!entry["dtype"].is_string()) return R::failure(Message("error.safetensors.dtype_type", {{"where", where}}));
        const std::string dtype = entry["dtype"];
        const size_t item = dtype_size(dtype);
        if (!item) return R::failure(Message("error.safetensors.dtype", {{"where", where}, {"dtype", dtype}}));
        const json& shape_json = entry["shape"];
        const json& offsets = entry["data_offsets"];
        if (!shape_json.is_array()) return R::failure(Message("error.safetensors.shape", {{"where", where}}));
        std::vector<int64_t> shape;
        // A zero dimension makes the element count 0 whatever follows, yet the tensor's
        // strides are still products of the other dimensions: bound those too.
        uint64_t count = 1, nonzero_count = 1;
        for (const json& d : shape_json) {
            if (!d.is_number_unsigned() || d.get<uint64_t>() > kMaxDim) return R::failure(Message("error.safetensors.shape", {{"where", where}}));
            const uint64_t size = d.get<uint64_t>();
            if (size > 0 && nonzero_count > kMaxElements / size)
                return R::failure(Message("error.safetensors.too_large", {{"where", where}}));
            if (size > 0) nonzero_count *= size;
            count *= size;
            shape.push_back(static_cast<int64_t>(size));
        }
        if (shape.size() > 16) return R::failure(Message("error.safetensors.rank", {{"where", where}, {"rank", shape.size()}}));
        if (!offsets.is_array() || offsets.size() != 2 || !offsets[0].is_number_unsigned() || !offsets[1].is_number_unsigned())
            return R::failure(Message("error.safetensors.offsets", {{"where", where}}));
        const uint64_t begin = offsets[0], end = offsets[1];
        if (begin > end || end > data_size)
            return R::failure(Message("error.safetensors.offsets_outside", {{"where", where}, {"begin", begin}, {"end", end}, {"bytes", data_size}}));
        if (end - begin != count * item)
            return R::failure(Message("error.safetensors.offsets_size", {{"where", where}, {"have", end - begin}, {"need", count * item}}));
        std::vector<float> values = to_float32(bytes.data() + data_start + begin, count, dtype);
        if (shape.empty()) shape.push_back(1);  // a scalar, kept as one element
        std::vector<std::string> names = numbered_dim_names(shape.size());
        tensors.emplace_back(it.key(), Tensor::from_values(std::move(shape), std::move(names), values));
    }
    return tensors;
}

Result<NamedTensors> read_safetensors(const std::string& path) {
    Result<std::string> bytes = read_file_bytes(path);
    if (!bytes) return Result<NamedTensors>::failure(bytes.message());
    return decode_safetensors(bytes.value(), "'" + path + "'");
}

std::string encode_safetensors(const NamedTensors& tensors) {
    json header = json::object();
    std::string data;
    for (const auto& [name, tensor] : tensors) {
        const std::vector<float> values = tensor.to_vector();
        const size_t begin = data.size();
        data.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
        header[name] = {{"dtype", "F32"}, {"shape", tensor.shape()}, {"data_offsets", {begin, data.size()}}};
    }
    header["__metadata__"] = {{"format", "pt"}, {"written_by", "attnviz"}};
    std::string text = header.dump();
    text.append((8 - text.size() % 8) % 8, ' ');  // keep the data 8-byte aligned
    std::string out(8, '\0');
    for (int i = 0; i < 8; ++i) out[static_cast<size_t>(i)] = static_cast<char>((text.size() >> (8 * i)) & 0xff);
    return out + text + data;
}

Status write_safetensors(const std::string& path, const NamedTensors& tensors) {
    return write_file_bytes(path, encode_safetensors(tensors));
}

}  // namespace attn::io
