// The timeline: play/pause, previous/next, a scrub bar over every step's animation and
// the list of steps with the current one highlighted.
#pragma once

#include "app/gui/display/animation.h"
#include "core/trace.h"

namespace attn::gui {

// The buttons, scrub bar and step tabs of `trace` (nullptr: a placeholder); they move `pb`.
void draw_timeline(const Trace* trace, Playback& pb, bool light_theme);

}  // namespace attn::gui
