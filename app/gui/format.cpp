#include "app/gui/format.h"

#include <cmath>
#include <cstdint>
#include <cstdio>

namespace attn::gui {

std::string format_cell_value(float value, int max_chars) {
    if (max_chars < 3) max_chars = 3;
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    char buf[32];
    // Try decreasing precision until the text fits; fall back to exponent form.
    for (int decimals = 2; decimals >= 0; --decimals) {
        std::snprintf(buf, sizeof(buf), "%.*f", decimals, static_cast<double>(value));
        std::string text = buf;
        if (text == "-0" || text == "-0.0" || text == "-0.00") text = text.substr(1);
        // "0.42" reads better as ".42" only when space is tight.
        if (static_cast<int>(text.size()) > max_chars && decimals > 0 && std::fabs(value) < 1.0f) {
            const size_t zero = text.find("0.");
            if (zero != std::string::npos && (zero == 0 || zero == 1)) text.erase(zero, 1);
        }
        if (static_cast<int>(text.size()) <= max_chars) return text;
    }
    std::snprintf(buf, sizeof(buf), "%.0e", static_cast<double>(value));
    return buf;
}

std::string format_value(float value) {
    if (std::isnan(value)) return "nan";
    if (std::isinf(value)) return value < 0 ? "-inf" : "inf";
    char buf[32];
    std::snprintf(buf, sizeof(buf), "%.4g", static_cast<double>(value));
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
    if (max_chars <= 0) return "";
    if (static_cast<int>(label.size()) <= max_chars) return label;
    if (max_chars == 1) return label.substr(0, 1);
    return label.substr(0, static_cast<size_t>(max_chars - 1)) + "~";
}

}  // namespace attn::gui
