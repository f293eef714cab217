// apply_edits: the edits of the state that the views of one frame returned in Actions
// (state/actions.h), written into the state. draw_frame (views/frame.h) calls it after each
// dock slot, so later slots draw the edits in the same frame; the window loop's
// apply_actions (window/apply_actions.h) calls it first for what is left.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/app_state.h"

namespace attn::gui {

// Writes the edits into `state` and clears them from `actions`, in this order: the
// session, the input files inside it, the settings (with language_changed, their language
// becomes the catalogue in use), the hint's dismissal, the dialog.
void apply_edits(AppState& state, Actions& actions);

}  // namespace attn::gui
