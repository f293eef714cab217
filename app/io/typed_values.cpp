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
    const std::string example = " (rows separated by ';', values by ',', e.g. \"0.43,0.15,0.89; 0.55,0.87,0.66\")";
    if (trimmed(text).empty()) return R::failure(flag + " is empty; give at least one row" + example);
    std::vector<std::string> rows = split(text, ';');
    if (rows.size() > 1 && trimmed(rows.back()).empty()) rows.pop_back();  // a trailing ';' is harmless
    std::vector<std::vector<float>> values;
    for (size_t r = 0; r < rows.size(); ++r) {
        const std::string row_name = "row " + std::to_string(r + 1);
        if (trimmed(rows[r]).empty()) return R::failure(flag + ": " + row_name + " is empty" + example);
        std::vector<float> row;
        const std::vector<std::string> items = split(rows[r], ',');
        for (size_t i = 0; i < items.size(); ++i) {
            const std::string item = trimmed(items[i]);
            const std::string where = row_name + ", value " + std::to_string(i + 1);
            if (item.empty()) return R::failure(flag + ": " + where + " is missing" + example);
            errno = 0;
            char* end = nullptr;
            const double number = std::strtod(item.c_str(), &end);
            // Decimal only: strtod would also read hexadecimal ("0x10" as 16).
            if (end != item.c_str() + item.size() || item.find_first_of("xX") != std::string::npos)
                return R::failure(flag + ": " + where + " '" + item + "' is not a number" + example);
            if (!std::isfinite(number) || std::abs(number) > 3.4e38)
                return R::failure(flag + ": " + where + " '" + item + "' is not a finite float32 number (NaN and infinities are not inputs)");
            row.push_back(static_cast<float>(number));
        }
        if (!values.empty() && row.size() != values.front().size())
            return R::failure(flag + ": " + row_name + " has " + std::to_string(row.size()) + " values, row 1 has " +
                              std::to_string(values.front().size()) + " (every row is one token of the same width)");
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
