#include "app/gui/state/settings.h"

#include <algorithm>
#include <cctype>
#include <cerrno>
#include <cmath>
#include <cstring>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <type_traits>
#include <variant>
#include <unistd.h>

#include "app/gui/display/weights_as.h"
#include "core/config_fields.h"

namespace attn::gui {
namespace {

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return "";
    const size_t b = s.find_last_not_of(" \t\r");
    return s.substr(a, b - a + 1);
}

// The whole value must be one number ("3abc", "nan", "1e999" are refused, keeping the
// default); a number outside [lo, hi] is clamped. False when the value was refused.
template <typename T>
bool read_number(const std::string& text, T& out, T lo, T hi) {
    std::istringstream in(text);
    T v{};
    if (!(in >> v)) return false;
    if (!(in >> std::ws).eof()) return false;
    if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(v)) return false;
    }
    out = std::clamp(v, lo, hi);
    return true;
}

// A line a person could show in the status bar: printable ASCII, at most 40 characters.
std::string printable_excerpt(const std::string& line) {
    std::string out;
    for (char c : line.substr(0, 40)) out += (c >= 32 && c < 127) ? c : '?';
    return line.size() > 40 ? out + "..." : out;
}

}  // namespace

AttentionConfig saved_config_defaults() {
    AttentionConfig config;
    config.seq_len = 6;
    config.hidden_dim = 8;
    return config;
}

void copy_saved_fields(const AttentionConfig& from, AttentionConfig& to) {
    for (const ConfigField& field : config_fields())
        if (*field.settings_key) copy_field(field, from, to);
}

std::string config_dir() {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    if (xdg && *xdg) return std::string(xdg) + "/attnviz";
    const char* home = std::getenv("HOME");
    if (home && *home) return std::string(home) + "/.config/attnviz";
    return "";
}

namespace {

// Text only: a NUL or other control byte means the file is damaged.
bool is_plain_text(const std::string& value) {
    return std::none_of(value.begin(), value.end(), [](char c) { return c >= 0 && c < 32 && c != '\t'; });
}

// One setting: its key in the file, the member it fills and, for numbers, the range
// a value is clamped to. Flags are written as 0 / 1; text at most kMaxText bytes of
// plain text, and `accepts` (when given) says which texts the setting takes.
struct SettingField {
    const char* key;
    std::variant<bool UiSettings::*, int UiSettings::*, float UiSettings::*, std::string UiSettings::*> member;
    double lo = 0, hi = 0;
    bool (*accepts)(const std::string& value) = nullptr;
};
constexpr size_t kMaxText = 4096;

// A language code names a file in assets/lang: letters, digits, '-' and '_' only ("":
// none picked yet).
bool is_language_code(const std::string& value) {
    return value.size() <= 16 && std::all_of(value.begin(), value.end(), [](char c) {
               return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
           });
}

bool is_weights_as_name(const std::string& value) { return parse_weights_as(value).has_value(); }

// The window's own settings, in file order (the configuration's fields follow them).
// Ranges are the controls' own ranges.
const SettingField kFields[] = {
    {"light_theme", &UiSettings::light_theme},
    {"ui_scale", &UiSettings::ui_scale, 0.75, 2.5},
    {"speed", &UiSettings::speed, 0.1, 8.0},
    {"show_values", &UiSettings::show_values},
    {"stretch_probabilities", &UiSettings::stretch_probabilities},
    {"one_colour_scale", &UiSettings::one_colour_scale},
    {"weights_as", &UiSettings::weights_as, 0, 0, is_weights_as_name},
    {"window_width", &UiSettings::window_width, 320, 16384},
    {"window_height", &UiSettings::window_height, 240, 16384},
    {"left_panel_em", &UiSettings::left_panel_em, 10.0, 60.0},
    {"right_panel_em", &UiSettings::right_panel_em, 10.0, 60.0},
    {"explain_fraction", &UiSettings::explain_fraction, 0.15, 0.85},
    {"hint_seen", &UiSettings::hint_seen},
    {"laser_colour", &UiSettings::laser_colour, 0, 3},
    {"language", &UiSettings::language, 0, 0, is_language_code},
    {"present_screen", &UiSettings::present_screen},
    {"sentence", &UiSettings::sentence},
    {"valid_length", &UiSettings::valid_length, 0, 1024},
    {"step", &UiSettings::step},
    {"model", &UiSettings::model},
    {"model_layer", &UiSettings::model_layer, 0, 64},
};

void write_field(std::ostream& out, const SettingField& field, const UiSettings& s) {
    out << field.key << " = ";
    std::visit([&](auto member) {
        using T = std::decay_t<decltype(s.*member)>;
        if constexpr (std::is_same_v<T, bool>) out << (s.*member ? 1 : 0);
        else out << s.*member;
    }, field.member);
    out << "\n";
}

// False when `value` is refused (the member keeps its default).
bool read_field(const SettingField& field, const std::string& value, UiSettings& s) {
    return std::visit([&](auto member) {
        using T = std::decay_t<decltype(s.*member)>;
        if constexpr (std::is_same_v<T, bool>) {
            int flag = 0;
            if (!read_number(value, flag, 0, 1)) return false;
            s.*member = flag != 0;
            return true;
        } else if constexpr (std::is_same_v<T, std::string>) {
            if (!is_plain_text(value) || (field.accepts && !field.accepts(value))) return false;
            s.*member = value.substr(0, kMaxText);
            return true;
        } else {
            return read_number(value, s.*member, static_cast<T>(field.lo), static_cast<T>(field.hi));
        }
    }, field.member);
}

// A configuration field: flags as 0 / 1, numbers as numbers, the mask and the variant
// as their enumeration's number, everything else in the command line's words.
void write_config_field(std::ostream& out, const ConfigField& field, const AttentionConfig& c) {
    out << field.settings_key << " = ";
    std::visit([&](auto member) {
        using T = std::decay_t<decltype(c.*member)>;
        if constexpr (std::is_same_v<T, bool>) out << (c.*member ? 1 : 0);
        else if constexpr (std::is_arithmetic_v<T>) out << c.*member;
        else if constexpr (std::is_enum_v<T>) {
            if (field.has(kSavedAsIndex)) out << static_cast<int>(c.*member);
            else out << format_field(field, c);
        } else out << format_field(field, c);
    }, field.member);
    out << "\n";
}

// False when `value` is refused (the field keeps its default); numbers are clamped to the
// field's saved range.
bool read_config_field(const ConfigField& field, const std::string& value, AttentionConfig& c) {
    if (!is_plain_text(value)) return false;
    const double lo = field.saved_range.lo, hi = field.saved_range.hi;
    return std::visit([&](auto member) {
        using T = std::decay_t<decltype(c.*member)>;
        T& target = c.*member;
        long long whole = 0;
        if constexpr (std::is_same_v<T, bool>) {
            if (!read_number(value, whole, 0LL, 1LL)) return false;
            target = whole != 0;
        } else if constexpr (std::is_integral_v<T> || std::is_enum_v<T>) {
            if (std::is_enum_v<T> && !field.has(kSavedAsIndex)) return parse_field(field, value, c).ok();
            if (!read_number(value, whole, static_cast<long long>(lo), static_cast<long long>(hi))) return false;
            target = static_cast<T>(whole);
        } else if constexpr (std::is_floating_point_v<T>) {
            return read_number(value, target, static_cast<T>(lo), static_cast<T>(hi));
        } else {
            return parse_field(field, value, c).ok();
        }
        return true;
    }, field.member);
}

}  // namespace

std::string serialize_settings(const UiSettings& s) {
    std::ostringstream out;
    for (const SettingField& field : kFields) write_field(out, field, s);
    for (const ConfigField& field : config_fields())
        if (*field.settings_key) write_config_field(out, field, s.config);
    return out.str();
}

UiSettings parse_settings(const std::string& text, Message* problem) {
    UiSettings s;
    std::istringstream in(text);
    std::string line, first_bad;
    int line_number = 0, bad_lines = 0, first_bad_line = 0;
    while (std::getline(in, line)) {
        ++line_number;
        bool ok = true;
        const size_t eq = line.find('=');
        if (eq == std::string::npos) {
            ok = trim(line).empty() || trim(line)[0] == '#';  // blank lines and comments are fine
        } else {
            const std::string key = trim(line.substr(0, eq));
            const std::string value = trim(line.substr(eq + 1));
            for (const SettingField& field : kFields)
                if (key == field.key) ok = read_field(field, value, s);
            for (const ConfigField& field : config_fields())
                if (*field.settings_key && key == field.settings_key) ok = read_config_field(field, value, s.config);
            if (key == "seq_len" && ok) s.has_session = true;
        }
        if (!ok && bad_lines++ == 0) {
            first_bad_line = line_number;
            first_bad = printable_excerpt(line);
        }
    }
    if (problem) {
        problem->clear();
        if (bad_lines > 0)
            *problem = Message(bad_lines == 1 ? "status.settings.bad_line" : "status.settings.bad_lines",
                               {{"count", bad_lines}, {"line", first_bad_line}, {"excerpt", first_bad}});
    }
    return s;
}

std::string read_config_file(const std::string& path, Message* problem) {
    problem->clear();
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (status.type() == std::filesystem::file_type::not_found) return "";
    const std::string name = std::filesystem::path(path).filename().string();
    if (ec) {
        *problem = Message("status.settings.cannot_read", {{"name", name}, {"reason", ec.message()}});
        return "";
    }
    // A device or a pipe would never end (or block); a folder cannot be read.
    if (status.type() != std::filesystem::file_type::regular) {
        *problem = Message("status.settings.not_regular", {{"name", name}});
        return "";
    }
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec || size > kMaxSettingsFileBytes) {
        *problem = Message("status.settings.too_large", {{"name", name}});
        return "";
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (!in || in.bad()) {
        *problem = Message("status.settings.cannot_read", {{"name", name}, {"reason", std::strerror(errno)}});
        return "";
    }
    return text.str();
}

bool write_config_file(const std::string& path, const std::string& bytes, Message* problem) {
    // Same folder, so the rename cannot cross file systems; the pid keeps two windows apart.
    const std::string temporary = path + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (out) out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) {
            std::error_code ignored;
            std::filesystem::remove(temporary, ignored);
            if (problem) *problem = Message("status.settings.cannot_write", {{"path", temporary}, {"reason", std::strerror(errno)}});
            return false;
        }
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::filesystem::remove(temporary, ec);
        if (problem) *problem = Message("status.settings.cannot_replace", {{"path", path}, {"reason", ec.message()}});
        return false;
    }
    return true;
}

UiSettings load_settings(Message* problem) {
    Message local;
    Message& message = problem ? *problem : local;
    message.clear();
    const std::string dir = config_dir();
    if (dir.empty()) return {};
    const std::string text = read_config_file(dir + "/settings.ini", &message);
    if (!message.empty()) return {};
    return parse_settings(text, &message);
}

bool save_settings(const UiSettings& settings) {
    const std::string dir = config_dir();
    if (dir.empty()) return false;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    return write_config_file(dir + "/settings.ini", serialize_settings(settings));
}

}  // namespace attn::gui
