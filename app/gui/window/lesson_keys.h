// The keys that move through a lesson's slides in the window (`attnviz --lesson`).
#pragma once

#include "app/gui/window/key_actions.h"

namespace attn::gui {

// While a lesson is shown: Right or Page Down (what presentation clickers send) asks for
// the next slide, Left or Page Up for the previous one. Returns the slide's index, or -1
// to stay; the keys it used are taken out of `presses`, so the playback does not move too.
int slide_key_target(KeyPresses& presses, int current, int count);

}  // namespace attn::gui
