#include "app/gui/settings.h"

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
#include <unistd.h>

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

std::string config_dir() {
    const char* xdg = std::getenv("XDG_CONFIG_HOME");
    if (xdg && *xdg) return std::string(xdg) + "/attnviz";
    const char* home = std::getenv("HOME");
    if (home && *home) return std::string(home) + "/.config/attnviz";
    return "";
}

std::string serialize_settings(const UiSettings& s) {
    std::ostringstream out;
    out << "light_theme = " << (s.light_theme ? 1 : 0) << "\n"
        << "ui_scale = " << s.ui_scale << "\n"
        << "speed = " << s.speed << "\n"
        << "show_values = " << (s.show_values ? 1 : 0) << "\n"
        << "window_width = " << s.window_width << "\n"
        << "window_height = " << s.window_height << "\n"
        << "left_panel_em = " << s.left_panel_em << "\n"
        << "right_panel_em = " << s.right_panel_em << "\n"
        << "explain_fraction = " << s.explain_fraction << "\n"
        << "hint_seen = " << (s.hint_seen ? 1 : 0) << "\n"
        << "language = " << s.language << "\n"
        << "sentence = " << s.sentence << "\n"
        << "seq_len = " << s.seq_len << "\n"
        << "hidden_dim = " << s.hidden_dim << "\n"
        << "num_heads = " << s.num_heads << "\n"
        << "batch = " << s.batch << "\n"
        << "mask = " << s.mask << "\n"
        << "valid_length = " << s.valid_length << "\n"
        << "dropout = " << s.dropout << "\n"
        << "bias = " << (s.bias ? 1 : 0) << "\n"
        << "variant = " << s.variant << "\n"
        << "seed = " << s.seed << "\n";
    return out.str();
}

UiSettings parse_settings(const std::string& text, std::string* problem) {
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
            int flag = 0;
            if (key == "light_theme") { ok = read_number(value, flag, 0, 1); s.light_theme = flag != 0; }
            else if (key == "ui_scale") ok = read_number(value, s.ui_scale, 0.75f, 2.5f);
            else if (key == "speed") ok = read_number(value, s.speed, 0.1f, 8.0f);
            else if (key == "show_values") { flag = 1; ok = read_number(value, flag, 0, 1); s.show_values = flag != 0; }
            else if (key == "window_width") ok = read_number(value, s.window_width, 320, 16384);
            else if (key == "window_height") ok = read_number(value, s.window_height, 240, 16384);
            else if (key == "left_panel_em") ok = read_number(value, s.left_panel_em, 10.0f, 60.0f);
            else if (key == "right_panel_em") ok = read_number(value, s.right_panel_em, 10.0f, 60.0f);
            else if (key == "explain_fraction") ok = read_number(value, s.explain_fraction, 0.15f, 0.85f);
            else if (key == "hint_seen") { ok = read_number(value, flag, 0, 1); s.hint_seen = flag != 0; }
            else if (key == "language") {
                // A language code names a file: letters, digits, '-' and '_' only.
                ok = !value.empty() && value.size() <= 16 && std::all_of(value.begin(), value.end(), [](char c) {
                         return std::isalnum(static_cast<unsigned char>(c)) || c == '-' || c == '_';
                     });
                if (ok) s.language = value;
            }

            else if (key == "sentence") {
                // Text only: a NUL or other control byte means the file is damaged.
                ok = std::none_of(value.begin(), value.end(), [](char c) { return c >= 0 && c < 32 && c != '\t'; });
                if (ok) s.sentence = value.substr(0, 4096);
            }
            else if (key == "seq_len") ok = read_number(value, s.seq_len, 1, 1024);
            else if (key == "hidden_dim") ok = read_number(value, s.hidden_dim, 1, 1024);
            else if (key == "num_heads") ok = read_number(value, s.num_heads, 1, 64);
            else if (key == "batch") ok = read_number(value, s.batch, 1, 8);
            else if (key == "mask") ok = read_number(value, s.mask, 0, 2);
            else if (key == "valid_length") ok = read_number(value, s.valid_length, 1, 1024);
            else if (key == "dropout") ok = read_number(value, s.dropout, 0.0f, 0.9f);
            else if (key == "bias") { flag = 1; ok = read_number(value, flag, 0, 1); s.bias = flag != 0; }
            else if (key == "variant") ok = read_number(value, s.variant, 0, 2);
            else if (key == "seed") ok = read_number(value, s.seed, 0, 1000000);
        }
        if (!ok && bad_lines++ == 0) {
            first_bad_line = line_number;
            first_bad = printable_excerpt(line);
        }
    }
    if (problem) {
        problem->clear();
        if (bad_lines > 0)
            *problem = "settings.ini: " + std::to_string(bad_lines) + (bad_lines == 1 ? " line" : " lines") +
                       " unreadable (line " + std::to_string(first_bad_line) + ": \"" + first_bad + "\"); defaults used there";
    }
    return s;
}

std::string read_config_file(const std::string& path, std::string* problem) {
    problem->clear();
    std::error_code ec;
    const std::filesystem::file_status status = std::filesystem::status(path, ec);
    if (status.type() == std::filesystem::file_type::not_found) return "";
    const std::string name = std::filesystem::path(path).filename().string();
    if (ec) {
        *problem = name + " cannot be read (" + ec.message() + "); using defaults";
        return "";
    }
    // A device or a pipe would never end (or block); a folder cannot be read.
    if (status.type() != std::filesystem::file_type::regular) {
        *problem = name + " is not a regular file; using defaults";
        return "";
    }
    const uintmax_t size = std::filesystem::file_size(path, ec);
    if (ec || size > kMaxSettingsFileBytes) {
        *problem = name + " is larger than 1 MiB, so it is not ours; using defaults";
        return "";
    }
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    if (in) text << in.rdbuf();
    if (!in || in.bad()) {
        *problem = name + " cannot be read (" + std::strerror(errno) + "); using defaults";
        return "";
    }
    return text.str();
}

bool write_config_file(const std::string& path, const std::string& bytes, std::string* problem) {
    // Same folder, so the rename cannot cross file systems; the pid keeps two windows apart.
    const std::string temporary = path + ".tmp" + std::to_string(::getpid());
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (out) out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
        out.close();
        if (!out) {
            std::error_code ignored;
            std::filesystem::remove(temporary, ignored);
            if (problem) *problem = "cannot write " + temporary + ": " + std::strerror(errno);
            return false;
        }
    }
    std::error_code ec;
    std::filesystem::rename(temporary, path, ec);
    if (ec) {
        std::filesystem::remove(temporary, ec);
        if (problem) *problem = "cannot replace " + path + ": " + ec.message();
        return false;
    }
    return true;
}

UiSettings load_settings(std::string* problem) {
    std::string local;
    std::string& message = problem ? *problem : local;
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
