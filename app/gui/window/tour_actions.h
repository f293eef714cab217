// Help > Tour in the window: opening the tour's lesson, moving through its slides and
// closing it (state/tour.h), as the frame's Actions ask.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/app_state.h"
#include "app/gui/window/key_actions.h"

namespace attn::gui {

struct WindowParts;

// While the tour runs: Right or Page Down asks for its next slide, Left or Page Up for the
// one before (those presses are taken out of `presses`, so the playback stays), Escape
// closes it (the press stays: it also leaves full screen).
Actions tour_key_actions(KeyPresses& presses, const TourState& tour);
// Carries out actions.start_tour, tour_slide and close_tour.
void apply_tour_actions(AppState& state, const Actions& actions, WindowParts& parts, double now);

}  // namespace attn::gui
