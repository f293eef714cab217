// Every keyboard and mouse shortcut of the window, in one table: the Help > Keyboard
// dialog lists it (its words from the message catalogue), and a test checks it names
// every key the window's key handler (key_actions.cpp) knows and every row of the README's
// two key tables. Add a row here when a key is added there.
#pragma once

#include <array>
#include <string>

#include "app/text/languages.h"

namespace attn::gui {

struct Shortcut {
    const char* id;    // names its texts in the catalogue: "shortcut.<id>.keys" and "shortcut.<id>.action"
    const char* keys;  // the key names in English, e.g. "Right, PageDown" (the test reads these)
};

inline constexpr std::array<Shortcut, 29> kShortcuts{{
    {"play", "Space"},
    {"next", "Right, PageDown"},
    {"previous", "Left, PageUp"},
    {"first_last", "Home / End"},
    {"tab", "click a step tab"},
    {"full_screen", "F"},
    {"presentation", "P"},
    {"compare", "V"},
    {"lesson_undo", "Ctrl+Z / Ctrl+Shift+Z, Ctrl+Y"},  // the Lesson menu's slide edits (window/lesson_edit.cpp)
    {"escape", "Escape"},
    {"quit", "Ctrl+Q"},
    {"cell", "hover / click a cell"},
    {"head", "double-click a head"},
    {"paint", "paint mask: click / Shift+click / Ctrl+click"},
    {"type_input", "input step: click a cell, type, Enter"},
    {"code_line", "click a line of the PyTorch code"},
    {"follow", "right-click a cell > Follow this cell; Follow in the inspector"},  // views/canvas/view_canvas_follow
    {"tour", "Help > Tour; then Right, Left, Escape"},                              // window/tour_actions
    // Presenting (present_keys.cpp).
    {"blank", "B"},
    {"note", "N"},
    {"pointer", "hold L, or Shift+L"},
    {"pen", "D"},
    {"pen_colour", "1, 2, 3, 4 (pen on)"},
    {"pen_undo", "Ctrl+Z (pen on)"},
    {"clear", "C"},
    {"slide_number", "a number, Enter (pen off)"},  // lesson_keys.cpp; 1-4 are the pen's colours while it is on
    {"slide_grid", "G"},
    {"timer", "T"},
    {"overview", "O"},  // View > Overview: every layer and head
}};

// The catalogue key of a row's action: "shortcut.<id>.action", or in the browser build
// "shortcut.<id>.action.browser" where the key does something else in a page (N: a page
// opens no window of its own, so the speaker notes stay over the canvas).
inline std::string shortcut_action_key(const Shortcut& shortcut, bool in_browser) {
    const std::string key = std::string("shortcut.") + shortcut.id + ".action";
    return in_browser && text::english().has_own(key + ".browser") ? key + ".browser" : key;
}

}  // namespace attn::gui
