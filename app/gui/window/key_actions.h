// The window's keyboard shortcuts: Space, arrows, PageUp/PageDown (presentation clickers),
// Home/End move the playback; F, P, Escape and Ctrl+Q come back as Actions for the window
// loop. Help > Keyboard lists them (shortcuts.h); a test checks every key handled in
// key_actions.cpp is listed there.
#pragma once

#include <utility>
#include <vector>

#include "app/gui/state/actions.h"
#include "app/gui/display/animation.h"

namespace attn::gui {

// One frame's key presses as GLFW reports them: (key, mods).
using KeyPresses = std::vector<std::pair<int, int>>;

// Applies the playback keys to `pb` and returns what the other keys ask for.
// `presentation`: presentation mode is on (Escape then leaves it).
Actions key_actions(const KeyPresses& presses, Playback& pb, bool presentation);

}  // namespace attn::gui
