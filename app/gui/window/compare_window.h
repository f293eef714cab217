// Compare mode in the running window: B's compute worker, its results, the ready
// contrasts and the A/B switch taking effect (state/compare.h holds what they change).
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/app_state.h"

namespace attn::gui {

struct WindowParts;

// View > Compare, a contrast chosen, B edited: carried out once the frame is on screen.
void apply_compare_actions(AppState& state, Actions& actions, WindowParts& parts, double now);
// B's news from its worker (a trace, a completed model) and the difference brought up
// to date for the step on screen; before the frame.
void take_compare_news(AppState& state, WindowParts& parts, double now);
// After the frame: B's other steps are built once the one on screen is drawn.
void finish_compare_models(const AppState& state, WindowParts& parts);

}  // namespace attn::gui
