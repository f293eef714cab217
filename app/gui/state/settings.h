// Settings that survive a restart, stored under the XDG config folder
// ($XDG_CONFIG_HOME/attnviz or ~/.config/attnviz), never the working directory.
// ImGui's own window state goes to imgui.ini in the same folder.
#pragma once

#include <string>

#include "core/config.h"
#include "core/message.h"

namespace attn::gui {

// What a settings file without a configuration line starts from (L = 6, E = 8: the
// default sentence's six words, two heads of four).
AttentionConfig saved_config_defaults();
// Copies the fields settings.ini keeps (those with a settings key) from one configuration
// to another: the window's save and restore.
void copy_saved_fields(const AttentionConfig& from, AttentionConfig& to);

struct UiSettings {
    bool light_theme = false;
    float ui_scale = 1.0f;      // 0.75 .. 2.5
    float speed = 1.0f;         // animation speed multiplier
    bool show_values = true;    // numbers in cells that are big enough
    bool stretch_probabilities = false;  // colour scale: probabilities on 0..data max (see ColourScale)
    bool one_colour_scale = false;       // colour scale: one range across steps
    std::string weights_as = "heatmap";  // View > Weights as: a name of display/weights_as.h's kWeightsAsRows
    bool difference_from_float32 = false;  // View menu: |x - x_fp32| per step (bf16/f16); not saved
    int window_width = 1440, window_height = 900;
    // Side panels, dragged by their splitter bars: widths in font heights (so they follow
    // the UI scale) and the explanation's share of the right column.
    float left_panel_em = 20.0f;     // 10 .. 60
    float right_panel_em = 22.0f;    // 10 .. 60
    float explain_fraction = 0.45f;  // 0.15 .. 0.85
    bool hint_seen = false;     // the first-run hint (how to step) was dismissed
    int laser_colour = 0;       // View > Laser colour: the pen's colours by position (lesson::kPenColours)
    // The code of a file in assets/lang ("en" for en.json), picked in View > Language;
    // "" until then: the language of the system's locale (LC_ALL, LC_MESSAGES, LANG).
    std::string language;
    // The screen presentation mode goes to (View > Present on screen, --screen): a monitor's
    // name as GLFW reports it; "" : the primary one.
    std::string present_screen;

    // Last configuration, so the lesson resumes where it stopped: the fields with a
    // settings key in core/config_fields.h (the others keep their defaults), written in
    // the command line's words ("causal,left-padding", "-1e20", "bfloat16") except the
    // mask and variant, which the file has always held as numbers.
    AttentionConfig config = saved_config_defaults();
    std::string sentence = "the cat sat on the mat";
    int valid_length = 4;       // of the batch item on screen
    std::string step;           // the step on screen, by name ("" : the first)
    std::string model;          // the trained model shown ("" : the seeded random weights)
    int model_layer = 0;        // its layer
    // Not a setting: true when the file held a configuration to resume (set by parse_settings).
    bool has_session = false;
};

// The folder for attnviz's files ("" when neither XDG_CONFIG_HOME nor HOME is set).
std::string config_dir();
// "key = value" lines: one per entry of the window's own table in settings.cpp, then one
// per configuration field with a settings key (core/config_fields.h). Unknown keys are ignored when parsing (a newer
// version may add some), bad values keep the defaults and out-of-range ones are clamped.
std::string serialize_settings(const UiSettings& settings);
// When `problem` is given it receives one line for the window's status bar naming the
// first unreadable line and how many there were ("" when every line was fine).
UiSettings parse_settings(const std::string& text, Message* problem = nullptr);

// Settings files larger than this are not settings (a few hundred bytes are normal).
constexpr size_t kMaxSettingsFileBytes = 1 << 20;
// The contents of a small config file, or "" with `problem` set when it exists but is
// unreadable (a folder, a device, too large, permission denied). Missing is not a problem.
std::string read_config_file(const std::string& path, Message* problem);
// Writes `bytes` to a temporary file next to `path`, then renames it over `path`, so a
// crash or a full disk never leaves a half-written file. False (with `problem`) on failure.
bool write_config_file(const std::string& path, const std::string& bytes, Message* problem = nullptr);

// Reads <config_dir>/settings.ini: defaults when missing; when unreadable or partly
// corrupt, defaults for what could not be read and a one-line `problem` for the window.
UiSettings load_settings(Message* problem = nullptr);
// Writes it (temporary file + rename), creating the folder; false when impossible.
bool save_settings(const UiSettings& settings);

}  // namespace attn::gui
