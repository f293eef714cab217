// The keys that move through a lesson's slides in the window (`attnviz --lesson`).
#pragma once

#include "app/gui/state/app_state.h"
#include "app/gui/window/key_actions.h"
#include "app/gui/window/window_parts.h"

namespace attn::gui {

// While a lesson is shown: Right or Page Down (what presentation clickers send) asks for
// the next slide, Left or Page Up for the previous one. Returns the slide's index, or -1
// to stay; the keys it used are taken out of `presses`, so the playback does not move too.
int slide_key_target(KeyPresses& presses, int current, int count);
// The first slide of parts.lesson put on the state: its request, and "slide 1 of N" (or the
// lesson's first problem) in the status line.
ComputeRequest start_lesson(AppState& state, WindowParts& parts);
// This frame's slide keys: the slide they ask for is put on the state and its request posted.
void follow_lesson_keys(AppState& state, WindowParts& parts);

}  // namespace attn::gui
