#include "app/gui/display/format.h"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>

#include "core/text_split.h"

namespace attn::gui {

int choose_cell_decimals(const float* values, size_t count, int max_chars) {
    // Fewer decimals only while the largest value keeps two significant digits: a panel of
    // "0", "-0", "1" would be right but say nothing.
    float largest = 0.0f;
    for (size_t i = 0; i < count; ++i)
        if (std::isfinite(values[i]) && !is_fill_value(values[i])) largest = std::max(largest, std::fabs(values[i]));
    const int fewest = largest > 0.0f ? std::clamp(1 - static_cast<int>(std::floor(std::log10(largest))), 0, 2) : 2;
    for (int decimals = 2; decimals >= fewest; --decimals) {
        bool fits = true;
        for (size_t i = 0; i < count && fits; ++i) {
            const float v = values[i];
            // -inf and a finite mask fill are drawn only when they fit (format_cell_fixed):
            // one masked cell must not take the numbers of every other cell away.
            if (!std::isfinite(v) || is_fill_value(v)) continue;
            fits = static_cast<int>(format_cell_fixed(v, decimals).size()) <= max_chars;
        }
        if (fits) return decimals;
    }
    return -1;
}

std::string format_cell_fixed(float value, int decimals) {
    if (decimals < 0 || std::isnan(value)) return "";
    if (std::isinf(value)) return value < 0 ? "-inf" : "";
    char buf[64];
    if (is_fill_value(value)) {
        std::snprintf(buf, sizeof(buf), "%.0e", static_cast<double>(value));  // "-3e+38"
        return buf;
    }
    std::snprintf(buf, sizeof(buf), "%.*f", decimals, static_cast<double>(value));
    std::string text = buf;
    // -0.001 rounds to "-0.00": a sign on a printed zero reads as a negative number.
    if (text[0] == '-' && text.find_first_not_of("-0.") == std::string::npos) text.erase(0, 1);
    return text;
}

int scaled_exponent(float largest) {
    if (!(largest > 0.0f) || !std::isfinite(largest)) return 0;
    return std::max(0, 1 - static_cast<int>(std::floor(std::log10(largest))));
}

std::string format_cell_scaled(float value, int exponent) {
    if (std::isnan(value) || std::isinf(value)) return "";
    const long whole = std::lround(static_cast<double>(value) * std::pow(10.0, exponent));
    return std::to_string(whole);  // 0 is "0": lround has no negative zero
}

std::string format_power_of_ten(int exponent) {
    if (exponent <= 5) return std::to_string(static_cast<long>(std::lround(std::pow(10.0, exponent))));
    return "1e+" + std::to_string(exponent);
}

bool is_fill_value(float value) { return std::isfinite(value) && std::fabs(value) >= 1e15f; }

std::string format_value(float value, int significant) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    // A zero weight times a negative value is -0.0 in IEEE arithmetic; "-0" on screen reads
    // as a tiny negative number, which it is not.
    if (value == 0.0f) return "0";
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.*g", std::clamp(significant, 1, 9), static_cast<double>(value));
    return buf;
}

std::string format_shape(const std::vector<int64_t>& shape, const std::vector<std::string>& names) {
    std::string text = "(";
    for (size_t i = 0; i < shape.size(); ++i) {
        if (i > 0) text += ", ";
        if (i < names.size() && !names[i].empty()) text += names[i] + "=";
        text += std::to_string(shape[i]);
    }
    return text + ")";
}

std::string snapshot_file_name(int position, const std::string& step_name) {
    char buf[16];
    std::snprintf(buf, sizeof(buf), "%02d_", position);
    std::string safe;
    for (char c : step_name) {
        const bool keep = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
                          c == '_' || c == '-';
        safe += keep ? c : '_';
    }
    return buf + safe + ".png";
}

std::string format_ms(double ms) {
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.1f", ms);
    return buf;
}

std::string clip_label(const std::string& label, int max_chars) {
    // Counted in characters, not bytes: a Chinese character is 3 bytes of UTF-8 and is never cut.
    if (max_chars <= 0) return "";
    if (utf8_length(label) <= static_cast<size_t>(max_chars)) return label;
    if (max_chars == 1) return utf8_prefix(label, 1);
    return utf8_prefix(label, static_cast<size_t>(max_chars - 1)) + "~";
}

}  // namespace attn::gui
