#include "app/io/npy.h"

#include <cstring>
#include <regex>

#include "app/io/file_util.h"

namespace attn::io {

namespace {
constexpr char kMagic[] = "\x93NUMPY";

// Python tuple syntax: "(5,)" for one dimension, "(2, 3)" otherwise.
std::string shape_tuple(const std::vector<int64_t>& shape) {
    std::string s = "(";
    for (size_t i = 0; i < shape.size(); ++i) s += (i ? ", " : "") + std::to_string(shape[i]);
    return s + (shape.size() == 1 ? ",)" : ")");
}
}  // namespace

std::string encode_npy(const Tensor& tensor) {
    std::string dict = "{'descr': '<f4', 'fortran_order': False, 'shape': " + shape_tuple(tensor.shape()) + ", }";
    // Pad with spaces and a newline so data starts on a 64-byte boundary, as numpy does.
    const size_t preamble = 10;  // magic (6) + version (2) + header length (2)
    size_t total = preamble + dict.size() + 1;
    dict.append((64 - total % 64) % 64, ' ');
    dict += '\n';
    std::string out(kMagic, 6);
    out += '\x01';
    out += '\x00';
    const auto len = static_cast<uint16_t>(dict.size());
    out += static_cast<char>(len & 0xff);
    out += static_cast<char>(len >> 8);
    out += dict;
    const std::vector<float> values = tensor.to_vector();
    out.append(reinterpret_cast<const char*>(values.data()), values.size() * sizeof(float));
    return out;
}

Status write_npy(const std::string& path, const Tensor& tensor) { return write_file_bytes(path, encode_npy(tensor)); }

Result<Tensor> decode_npy(const std::string& bytes, const std::string& what) {
    using R = Result<Tensor>;
    if (bytes.size() < 10 || bytes.compare(0, 6, kMagic, 6) != 0) return R::failure(what + " is not a .npy file (bad magic bytes)");
    const auto major = static_cast<unsigned char>(bytes[6]);
    size_t header_len = 0, header_start = 0;
    if (major == 1) {
        header_len = static_cast<unsigned char>(bytes[8]) | static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8;
        header_start = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) return R::failure(what + " is truncated");
        for (int i = 3; i >= 0; --i) header_len = header_len << 8 | static_cast<unsigned char>(bytes[8 + static_cast<size_t>(i)]);
        header_start = 12;
    } else {
        return R::failure(what + " uses .npy format version " + std::to_string(major) + ", which is not supported");
    }
    if (header_start + header_len > bytes.size()) return R::failure(what + " is truncated (header runs past the end of the file)");
    const std::string header = bytes.substr(header_start, header_len);

    std::smatch m;
    if (!std::regex_search(header, m, std::regex(R"('descr'\s*:\s*'([^']*)')")))
        return R::failure(what + " has a malformed header (no dtype)");
    const std::string descr = m[1];
    size_t item = 0;
    if (descr == "<f4" || descr == "=f4" || descr == "|f4") item = 4;
    else if (descr == "<f8" || descr == "=f8") item = 8;
    else return R::failure(what + " has dtype '" + descr + "'; only float32 and float64 are supported (use arr.astype('float32'))");
    if (std::regex_search(header, std::regex(R"('fortran_order'\s*:\s*True)")))
        return R::failure(what + " is in Fortran order; save it with np.ascontiguousarray first");
    if (!std::regex_search(header, m, std::regex(R"('shape'\s*:\s*\(([^)]*)\))")))
        return R::failure(what + " has a malformed header (no shape)");
    std::vector<int64_t> shape;
    const std::string dims = m[1];
    const std::regex digits_re(R"(\d+)");
    std::sregex_iterator it(dims.begin(), dims.end(), digits_re), end;
    for (; it != end; ++it) {
        const std::string digits = it->str();
        if (digits.size() > 12) return R::failure(what + " has an absurd dimension " + digits);
        shape.push_back(std::stoll(digits));
    }
    if (shape.empty()) return R::failure(what + " holds a scalar; a tensor was expected");
    int64_t count = 1;
    for (int64_t d : shape) {
        if (d == 0) return R::failure(what + " is empty (a dimension of size 0)");
        count *= d;
        if (count > (int64_t{1} << 40)) return R::failure(what + " is too large");
    }
    const size_t data_start = header_start + header_len;
    const size_t need = static_cast<size_t>(count) * item;
    if (bytes.size() - data_start < need)
        return R::failure(what + " is truncated: its header promises " + std::to_string(need) + " bytes of data, the file has " +
                          std::to_string(bytes.size() - data_start));

    std::vector<float> values(static_cast<size_t>(count));
    const char* data = bytes.data() + data_start;
    if (item == 4) {
        std::memcpy(values.data(), data, need);
    } else {
        for (size_t i = 0; i < values.size(); ++i) {
            double v;
            std::memcpy(&v, data + i * 8, 8);
            values[i] = static_cast<float>(v);
        }
    }
    std::vector<std::string> names;
    for (size_t i = 0; i < shape.size(); ++i) names.push_back("d" + std::to_string(i));
    return Tensor::from_values(std::move(shape), std::move(names), std::move(values));
}

Result<Tensor> read_npy(const std::string& path) {
    Result<std::string> bytes = read_file_bytes(path);
    if (!bytes) return Result<Tensor>::failure(bytes.error());
    return decode_npy(bytes.value(), "'" + path + "'");
}

}  // namespace attn::io
