// The timeline: play/pause, previous/next, a scrub bar over every step's animation and
// the list of steps with the current one highlighted.
#pragma once

#include "app/gui/app_state.h"

namespace attn::gui {

void draw_timeline(AppState& state);

}  // namespace attn::gui
