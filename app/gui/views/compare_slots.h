// The three views compare mode (state/compare.h) changes, each wrapped so the registry's
// row stays one line (view_registry.cpp) and the branch on compare mode lives here, once:
//   canvas     A's canvas, or A, B and A − B side by side (canvas/view_compare.h)
//   controls   A's controls, or the A/B switch and the controls of the side it chose
//   inspector  the inspector and the input editor, under compare mode's lines for A, B, A − B
// Each has the registry's ViewDraw signature and hands the views only the parts they draw.
#pragma once

#include "app/gui/display/layout.h"
#include "app/gui/state/actions.h"
#include "app/gui/state/app_state.h"
#include "app/gui/views/frame_context.h"

namespace attn::gui {

Actions draw_canvas_slot(const AppState& state, UiState& ui, const FrameContext& ctx, const Rect& area);
Actions draw_controls_slot(const AppState& state, UiState& ui, const FrameContext& ctx, const Rect& area);
Actions draw_inspector_slot(const AppState& state, UiState& ui, const FrameContext& ctx, const Rect& area);

}  // namespace attn::gui
