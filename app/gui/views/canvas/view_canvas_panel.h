// The canvas panel: the canvas with what sits on it: the head selector (top right), the
// last compute error, "computing...", and the first-trace placeholder.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/app_state.h"
#include "app/gui/views/frame_context.h"
#include "app/gui/display/layout.h"
#include "app/gui/state/results.h"
#include "app/gui/state/session.h"
#include "app/gui/state/settings.h"
#include "app/gui/state/ui_state.h"
#include "app/gui/views/canvas/canvas_painter.h"

namespace attn::gui {

// Draws into the current window (the caller has begun it). When the session's edited
// configuration cannot run, the canvas notes it shows the last valid one; a mask painted
// on the canvas comes back as a session edit with config_changed.
// `decorations`: the head selector and messages (off in slides and canvas-only pictures).
Actions draw_canvas_panel(const Results& results, const Session& session, UiState& ui, const UiSettings& settings,
                          const FrameContext& ctx, bool decorations);

// What the canvas draws this frame for `results` (no drawing); compare mode makes one per column.
CanvasFrame canvas_frame_for(const Results& results, const Session& session, const UiState& ui, const UiSettings& settings,
                             const FrameContext& ctx);

// Presentation's layout question: the side of the main picture's cells if the canvas got
// `area`, with its caption and legend over the picture or, `key_beside`, in a side column.
float presentation_cell(const AppState& state, const UiState& ui, const FrameContext& ctx, const Rect& area, bool key_beside);
// How presentation lays its picture out: the explanation under it or beside it (with the
// caption and legend), and the canvas's type relative to the UI's (below 1 when a larger
// UI scale would otherwise make the picture smaller than at UI scale 1). `header_h`: the
// title's height; `footer_h`: the explanation's under the picture; `side_w`: the side column's.
struct PresentationFit {
    bool beside = false;
    float canvas_type = 1.0f;
};
PresentationFit fit_presentation(const AppState& state, const UiState& ui, const FrameContext& ctx, float w, float h,
                                 float header_h, float footer_h, float side_w);
// The canvas's caption and legend in presentation's side column (the current ImGui window);
// returns their height.
float draw_presentation_key(const AppState& state, const UiState& ui, const FrameContext& ctx, const Rect& area);

}  // namespace attn::gui
