// The first-run hint: how to move through the lesson, floating above the timeline until
// it is dismissed or the user steps on by themselves (remembered in the settings).
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/display/layout.h"

namespace attn::gui {

// Opens its own window centred on `area`'s width (`area`: the line above the step tabs),
// its top at `pictures_bottom` (the canvas's pictures end there; 0: unknown) when it fits
// between them and area.y, else its bottom edge at area.y.
// Returns hint_dismissed when the hint is dismissed or `step` is no longer the first, and
// start_tour with it when its "Take the tour" button is pressed.
Actions draw_first_run_hint(bool hint_seen, bool have_trace, int step, const Rect& area, float pictures_bottom = 0.0f);

}  // namespace attn::gui
