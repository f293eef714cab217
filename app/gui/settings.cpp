#include "app/gui/settings.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>

namespace attn::gui {
namespace {

std::string trim(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t\r");
    if (a == std::string::npos) return "";
    const size_t b = s.find_last_not_of(" \t\r");
    return s.substr(a, b - a + 1);
}

template <typename T>
void read_number(const std::string& text, T& out, T lo, T hi) {
    std::istringstream in(text);
    T v{};
    if (in >> v) out = std::clamp(v, lo, hi);
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

UiSettings parse_settings(const std::string& text) {
    UiSettings s;
    std::istringstream in(text);
    std::string line;
    while (std::getline(in, line)) {
        const size_t eq = line.find('=');
        if (eq == std::string::npos) continue;
        const std::string key = trim(line.substr(0, eq));
        const std::string value = trim(line.substr(eq + 1));
        int flag = 0;
        if (key == "light_theme") { read_number(value, flag, 0, 1); s.light_theme = flag != 0; }
        else if (key == "ui_scale") read_number(value, s.ui_scale, 0.75f, 2.5f);
        else if (key == "speed") read_number(value, s.speed, 0.1f, 8.0f);
        else if (key == "show_values") { flag = 1; read_number(value, flag, 0, 1); s.show_values = flag != 0; }
        else if (key == "window_width") read_number(value, s.window_width, 320, 16384);
        else if (key == "window_height") read_number(value, s.window_height, 240, 16384);
        else if (key == "left_panel_em") read_number(value, s.left_panel_em, 10.0f, 60.0f);
        else if (key == "right_panel_em") read_number(value, s.right_panel_em, 10.0f, 60.0f);
        else if (key == "explain_fraction") read_number(value, s.explain_fraction, 0.15f, 0.85f);
        else if (key == "hint_seen") { read_number(value, flag, 0, 1); s.hint_seen = flag != 0; }
        else if (key == "sentence") s.sentence = value.substr(0, 4096);
        else if (key == "seq_len") read_number(value, s.seq_len, 1, 1024);
        else if (key == "hidden_dim") read_number(value, s.hidden_dim, 1, 1024);
        else if (key == "num_heads") read_number(value, s.num_heads, 1, 64);
        else if (key == "batch") read_number(value, s.batch, 1, 8);
        else if (key == "mask") read_number(value, s.mask, 0, 2);
        else if (key == "valid_length") read_number(value, s.valid_length, 1, 1024);
        else if (key == "dropout") read_number(value, s.dropout, 0.0f, 0.9f);
        else if (key == "bias") { flag = 1; read_number(value, flag, 0, 1); s.bias = flag != 0; }
        else if (key == "variant") read_number(value, s.variant, 0, 2);
        else if (key == "seed") read_number(value, s.seed, 0, 1000000);
    }
    return s;
}

UiSettings load_settings() {
    const std::string dir = config_dir();
    if (dir.empty()) return {};
    std::ifstream in(dir + "/settings.ini");
    if (!in) return {};
    std::ostringstream text;
    text << in.rdbuf();
    return parse_settings(text.str());
}

bool save_settings(const UiSettings& settings) {
    const std::string dir = config_dir();
    if (dir.empty()) return false;
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    std::ofstream out(dir + "/settings.ini");
    if (!out) return false;
    out << serialize_settings(settings);
    return static_cast<bool>(out);
}

}  // namespace attn::gui
