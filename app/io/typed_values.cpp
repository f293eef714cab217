#include "app/io/typed_values.h"

#include <cerrno>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <vector>

namespace attn::io {

namespace {

std::string trimmed(const std::string& s) {
    const size_t first = s.find_first_not_of(" \t\r\n");
    if (first == std::string::npos) return "";
    return s.substr(first, s.find_last_not_of(" \t\r\n") - first + 1);
}

std::vector<std::string> split(const std::string& s, char separator) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (;;) {
        const size_t at = s.find(separator, start);
        parts.push_back(s.substr(start, at == std::string::npos ? std::string::npos : at - start));
        if (at == std::string::npos) return parts;
        start = at + 1;
    }
}

}  // namespace

Result<Mat> parse_typed_matrix(const std::string& text, const std::string& flag) {
    using R = Result<Mat>;
    const Message example("error.values.example");
    if (trimmed(text).empty()) return R::failure(Message("error.values.empty", {{"flag", flag}, {"example", example}}));
    std::vector<std::string> rows = split(text, ';');
    if (rows.size() > 1 && trimmed(rows.back()).empty()) rows.pop_back();  // a trailing ';' is harmless
    std::vector<std::vector<float>> values;
    for (size_t r = 0; r < rows.size(); ++r) {
        const size_t row_number = r + 1;
        if (trimmed(rows[r]).empty()) return R::failure(Message("error.values.row_empty", {{"flag", flag}, {"row", row_number}, {"example", example}}));
        std::vector<float> row;
        const std::vector<std::string> items = split(rows[r], ',');
        for (size_t i = 0; i < items.size(); ++i) {
            const std::string item = trimmed(items[i]);
            const auto failed = [&](const char* key) {
                return R::failure(Message(key, {{"flag", flag}, {"row", row_number}, {"value", i + 1}, {"item", item}, {"example", example}}));
            };
            if (item.empty()) return failed("error.values.missing");
            errno = 0;
            char* end = nullptr;
            const double number = std::strtod(item.c_str(), &end);
            // Decimal only: strtod would also read hexadecimal ("0x10" as 16).
            if (end != item.c_str() + item.size() || item.find_first_of("xX") != std::string::npos)
                return failed("error.values.not_number");
            if (!std::isfinite(number) || std::abs(number) > 3.4e38)
                return failed("error.values.not_finite");
            row.push_back(static_cast<float>(number));
        }
        if (!values.empty() && row.size() != values.front().size())
            return R::failure(Message("error.values.row_width",
                                      {{"flag", flag}, {"row", row_number}, {"count", row.size()}, {"width", values.front().size()}}));
        values.push_back(std::move(row));
    }
    Mat m(static_cast<Eigen::Index>(values.size()), static_cast<Eigen::Index>(values.front().size()));
    for (Eigen::Index r = 0; r < m.rows(); ++r)
        for (Eigen::Index c = 0; c < m.cols(); ++c) m(r, c) = values[static_cast<size_t>(r)][static_cast<size_t>(c)];
    return m;
}

std::string format_typed_matrix(const Mat& m) {
    std::string out;
    char buffer[32];
    for (Eigen::Index r = 0; r < m.rows(); ++r) {
        if (r > 0) out += "; ";
        for (Eigen::Index c = 0; c < m.cols(); ++c) {
            std::snprintf(buffer, sizeof buffer, "%.9g", static_cast<double>(m(r, c)));
            // The shortest text that reads back as the same float.
            for (int digits = 1; digits <= 9; ++digits) {
                char shorter[32];
                std::snprintf(shorter, sizeof shorter, "%.*g", digits, static_cast<double>(m(r, c)));
                if (std::strtof(shorter, nullptr) == m(r, c)) {
                    std::snprintf(buffer, sizeof buffer, "%s", shorter);
                    break;
                }
            }
            out += (c > 0 ? "," : "") + std::string(buffer);
        }
    }
    return out;
}

}  // namespace attn::io
