// Settings that survive a restart, stored under the XDG config folder
// ($XDG_CONFIG_HOME/attnviz or ~/.config/attnviz), never the working directory.
// ImGui's own window state goes to imgui.ini in the same folder.
#pragma once

#include <string>

#include "core/message.h"

namespace attn::gui {

struct UiSettings {
    bool light_theme = false;
    float ui_scale = 1.0f;      // 0.75 .. 2.5
    float speed = 1.0f;         // animation speed multiplier
    bool show_values = true;    // numbers in cells that are big enough
    bool stretch_probabilities = false;  // colour scale: probabilities on 0..data max (see ColourScale)
    bool one_colour_scale = false;       // colour scale: one range across steps
    bool difference_from_float32 = false;  // View menu: |x - x_fp32| per step (bf16/f16); not saved
    int window_width = 1440, window_height = 900;
    // Side panels, dragged by their splitter bars: widths in font heights (so they follow
    // the UI scale) and the explanation's share of the right column.
    float left_panel_em = 20.0f;     // 10 .. 60
    float right_panel_em = 22.0f;    // 10 .. 60
    float explain_fraction = 0.45f;  // 0.15 .. 0.85
    bool hint_seen = false;     // the first-run hint (how to step) was dismissed
    // The code of a file in assets/lang ("en" for en.json), picked in View > Language;
    // "" until then: the language of the system's locale (LC_ALL, LC_MESSAGES, LANG).
    std::string language;

    // Last configuration, so the lesson resumes where it stopped.
    std::string sentence = "the cat sat on the mat";
    int seq_len = 6;
    int hidden_dim = 8;
    int num_heads = 2;
    int batch = 1;
    int mask = 0;               // MaskKind as int
    int valid_length = 4;
    float dropout = 0.0f;
    bool bias = true;
    int variant = 0;            // Variant as int
    int seed = 0;
    // Issue 9's and 10's options, in the command line's words ("causal,left-padding",
    // "-1e20", "hidden", "bfloat16", "scratch-mha") so the file reads like the options.
    std::string mask_presets = "none";
    int window = 0;
    std::string mask_fill = "-inf";
    std::string scale = "head";
    bool mask_before_scale = false;
    bool rope = false;
    float rope_base = 10000.0f;
    std::string rope_style = "half";
    int position_offset = 0;
    int num_kv_heads = 0;       // 0: as many as num_heads
    int input_dim = 0;          // 0: hidden_dim
    bool no_qkv_bias = false;
    bool no_out_bias = false;
    bool no_out_proj = false;
    bool add_bias_kv = false;
    bool add_zero_attn = false;
    bool average_weights = false;
    std::string dtype = "float32";
    std::string recipe;         // the recipe the configuration started from ("" : none)
    std::string init = "attnviz";
    std::string step;           // the step on screen, by name ("" : the first)
    std::string model;          // the trained model shown ("" : the seeded random weights)
    int model_layer = 0;        // its layer
    // Not a setting: true when the file held a configuration to resume (set by parse_settings).
    bool has_session = false;
};

// The folder for attnviz's files ("" when neither XDG_CONFIG_HOME nor HOME is set).
std::string config_dir();
// "key = value" lines, one per entry of the field table in settings.cpp (the one list of
// settings: adding one is one line there). Unknown keys are ignored when parsing (a newer
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
