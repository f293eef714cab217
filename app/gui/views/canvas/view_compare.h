// Compare mode's canvas (View > Compare): the step on screen in A, in B and as A − B, in
// three columns under a band that says which contrast is shown and what to look for.
// Each column is the ordinary canvas (view_canvas.h) with its bands folded, so a cell
// is drawn, hovered and pinned the same way in all three.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/app_state.h"
#include "app/gui/display/layout.h"
#include "app/gui/views/frame_context.h"

namespace attn::gui {

// Draws into the current window over `area`; hovering or clicking any column sets the
// shared hovered and pinned cell (as a cell of A's step).
Actions draw_compare_canvas(const AppState& state, UiState& ui, const FrameContext& ctx, const Rect& area);

}  // namespace attn::gui
