// Help > Tour in the window: opening the tour's lesson, moving through its slides and
// closing it (state/tour.h), as the frame's Actions ask.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/app_state.h"

namespace attn::gui {

struct WindowParts;

// Carries out actions.start_tour, tour_slide and close_tour.
void apply_tour_actions(AppState& state, const Actions& actions, WindowParts& parts, double now);

}  // namespace attn::gui
