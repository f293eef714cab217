// Every keyboard and mouse shortcut of the window, in one table: the Help > Keyboard
// dialog lists it, and a test checks it names every key the window's key handler
// (key_actions.cpp) knows. Add a row here when a key is added there.
#pragma once

#include <array>

namespace attn::gui {

struct Shortcut {
    const char* keys;    // as printed, e.g. "Right, PageDown"
    const char* action;  // what it does
};

inline constexpr std::array<Shortcut, 11> kShortcuts{{
    {"Space", "play / pause"},
    {"Right, PageDown", "next step (a press during an animation finishes it first)"},
    {"Left, PageUp", "previous step (animated backwards)"},
    {"Home / End", "first / last step"},
    {"click a step tab", "go to that step"},
    {"F", "full screen on / off"},
    {"P", "presentation mode on / off"},
    {"Escape", "leave presentation mode / full screen"},
    {"Ctrl+Q", "quit (settings are saved)"},
    {"hover / click a cell", "inspect it / pin it"},
    {"double-click a head", "enlarge that head (again: all heads)"},
}};

}  // namespace attn::gui
