#include "app/io/npy.h"

#include <cstring>
#include <cctype>
#include <cmath>

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
// numpy writes headers under 4 KiB; anything far larger is not a real .npy.
constexpr size_t kMaxHeader = 65536;
// At most 2^31 elements (8 GiB of float32): bounds every size computed from a header.
constexpr int64_t kMaxElements = int64_t{1} << 31;

bool is_space(char c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r'; }

// The raw text of the value of 'key' in the header dict: a quoted string (quotes kept),
// a parenthesised tuple (parentheses dropped), or a bare word such as True. Empty when
// the key is absent or the value is malformed. A hand-written scanner, not std::regex,
// which recurses per character and overflows the stack on long hostile headers.
std::string header_value(const std::string& header, const std::string& key) {
    const size_t at = header.find("'" + key + "'");
    if (at == std::string::npos) return {};
    size_t i = at + key.size() + 2;
    while (i < header.size() && is_space(header[i])) ++i;
    if (i >= header.size() || header[i] != ':') return {};
    ++i;
    while (i < header.size() && is_space(header[i])) ++i;
    if (i >= header.size()) return {};
    if (header[i] == '\'' || header[i] == '"') {
        const size_t close = header.find(header[i], i + 1);
        return close == std::string::npos ? std::string() : header.substr(i, close - i + 1);
    }
    if (header[i] == '(') {
        const size_t close = header.find(')', i);
        return close == std::string::npos ? std::string() : header.substr(i + 1, close - i - 1);
    }
    size_t end = i;
    while (end < header.size() && std::isalnum(static_cast<unsigned char>(header[end]))) ++end;
    return header.substr(i, end - i);
}

// True when the header is one Python dict, as numpy.load's literal_eval needs: '{' first
// (after spaces), and the '}' that closes it (outside quotes and parentheses) followed by
// nothing but the padding spaces and newline. A header without its '}' is refused, as
// numpy refuses it ("EOF in multi-line statement").
bool header_is_one_dict(const std::string& header) {
    size_t i = 0;
    while (i < header.size() && is_space(header[i])) ++i;
    if (i == header.size() || header[i] != '{') return false;
    int parens = 0;
    char quote = 0;
    for (++i; i < header.size(); ++i) {
        const char c = header[i];
        if (quote) {
            if (c == quote) quote = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == '(') {
            ++parens;
        } else if (c == ')') {
            if (--parens < 0) return false;
        } else if (c == '}' && parens == 0) {
            for (++i; i < header.size(); ++i)
                if (!is_space(header[i])) return false;
            return true;
        }
    }
    return false;  // the dict never closes
}

// "2, 3, 4" or "5," -> {2, 3, 4} / {5}; whole positive numbers only, product bounded.
Result<std::vector<int64_t>> parse_shape(const std::string& text, const std::string& what) {
    using R = Result<std::vector<int64_t>>;
    std::vector<int64_t> shape;
    int64_t count = 1;
    size_t i = 0;
    while (i < text.size()) {
        while (i < text.size() && is_space(text[i])) ++i;
        if (i == text.size()) break;
        size_t end = i;
        while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
        if (end == i || end - i > 10) return R::failure(Message("error.npy.malformed_shape", {{"what", what}, {"shape", text.substr(0, 40)}}));
        const int64_t d = std::stoll(text.substr(i, end - i));
        if (d == 0) return R::failure(Message("error.npy.empty", {{"what", what}}));
        if (d > kMaxElements / count) return R::failure(Message("error.npy.too_large", {{"what", what}}));
        count *= d;
        shape.push_back(d);
        i = end;
        while (i < text.size() && is_space(text[i])) ++i;
        if (i < text.size() && text[i] != ',') return R::failure(Message("error.npy.malformed_shape", {{"what", what}, {"shape", text.substr(0, 40)}}));
        ++i;
    }
    if (shape.empty()) return R::failure(Message("error.npy.scalar", {{"what", what}}));
    return shape;
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
    Result<NpyArray> array = decode_npy_array(bytes, what);
    if (!array) return Result<Tensor>::failure(array.message());
    if (array->is_boolean) return Result<Tensor>::failure(Message("error.npy.boolean", {{"what", what}}));
    return std::move(array->tensor);
}

Result<NpyArray> decode_npy_array(const std::string& bytes, const std::string& what) {
    using R = Result<NpyArray>;
    if (bytes.size() < 10 || bytes.compare(0, 6, kMagic, 6) != 0) return R::failure(Message("error.npy.magic", {{"what", what}}));
    const auto major = static_cast<unsigned char>(bytes[6]);
    size_t header_len = 0, header_start = 0;
    if (major == 1) {
        header_len = static_cast<unsigned char>(bytes[8]) | static_cast<size_t>(static_cast<unsigned char>(bytes[9])) << 8;
        header_start = 10;
    } else if (major == 2 || major == 3) {
        if (bytes.size() < 12) return R::failure(Message("error.npy.truncated", {{"what", what}}));
        for (int i = 3; i >= 0; --i) header_len = header_len << 8 | static_cast<unsigned char>(bytes[8 + static_cast<size_t>(i)]);
        header_start = 12;
    } else {
        return R::failure(Message("error.npy.version", {{"what", what}, {"version", major}}));
    }
    if (header_start + header_len > bytes.size()) return R::failure(Message("error.npy.header_past_end", {{"what", what}}));
    if (header_len > kMaxHeader) return R::failure(Message("error.npy.header_size", {{"what", what}, {"bytes", header_len}}));
    const std::string header = bytes.substr(header_start, header_len);
    if (!header_is_one_dict(header)) return R::failure(Message("error.npy.header_not_dict", {{"what", what}}));

    const std::string descr = header_value(header, "descr");
    size_t item = 0;
    if (descr == "'<f4'" || descr == "'=f4'" || descr == "'|f4'") item = 4;
    else if (descr == "'<f8'" || descr == "'=f8'") item = 8;
    else if (descr == "'|b1'") item = 1;
    else if (descr.empty()) return R::failure(Message("error.npy.no_dtype", {{"what", what}}));
    else return R::failure(Message("error.npy.dtype", {{"what", what}, {"dtype", descr}}));
    const std::string fortran = header_value(header, "fortran_order");
    if (fortran == "True") return R::failure(Message("error.npy.fortran", {{"what", what}}));
    if (fortran != "False") return R::failure(Message("error.npy.fortran_malformed", {{"what", what}}));
    Result<std::vector<int64_t>> parsed = parse_shape(header_value(header, "shape"), what);
    if (!parsed) return R::failure(parsed.message());
    std::vector<int64_t> shape = std::move(parsed.value());
    int64_t count = 1;
    for (int64_t d : shape) count *= d;  // parse_shape bounded the product
    const size_t data_start = header_start + header_len;
    const size_t need = static_cast<size_t>(count) * item;
    if (bytes.size() - data_start < need)
        return R::failure(Message("error.npy.data_truncated", {{"what", what}, {"need", need}, {"have", bytes.size() - data_start}}));

    std::vector<float> values(static_cast<size_t>(count));
    const char* data = bytes.data() + data_start;
    if (item == 4) {
        std::memcpy(values.data(), data, need);
    } else if (item == 1) {
        for (size_t i = 0; i < values.size(); ++i) {
            const auto byte = static_cast<unsigned char>(data[i]);
            if (byte > 1)
                return R::failure(Message("error.npy.bool_byte", {{"what", what}, {"byte", byte}, {"index", i}}));
            values[i] = static_cast<float>(byte);
        }
    } else {
        for (size_t i = 0; i < values.size(); ++i) {
            double v;
            std::memcpy(&v, data + i * 8, 8);
            if (std::isfinite(v) && std::abs(v) > 3.4e38)
                return R::failure(Message("error.npy.float_range", {{"what", what}, {"value", std::to_string(v)}}));
            values[i] = static_cast<float>(v);
        }
    }
    std::vector<std::string> names = numbered_dim_names(shape.size());
    return NpyArray{Tensor::from_values(std::move(shape), std::move(names), values), item == 1};
}

Result<NpyArray> read_npy_array(const std::string& path) {
    Result<std::string> bytes = read_file_bytes(path);
    if (!bytes) return Result<NpyArray>::failure(bytes.message());
    return decode_npy_array(bytes.value(), "'" + path + "'");
}

Result<Tensor> read_npy(const std::string& path) {
    Result<std::string> bytes = read_file_bytes(path);
    if (!bytes) return Result<Tensor>::failure(bytes.message());
    return decode_npy(bytes.value(), "'" + path + "'");
}

}  // namespace attn::io
