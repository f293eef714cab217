// The canvas panel: the canvas with what sits on it: the head selector (top right), the
// last compute error, "computing...", and the first-trace placeholder.
#pragma once

#include "app/gui/actions.h"
#include "app/gui/frame_context.h"
#include "app/gui/results.h"
#include "app/gui/settings.h"
#include "app/gui/ui_state.h"

namespace attn::gui {

// Draws into the current window (the caller has begun it). `config_rejected`: the edited
// configuration cannot run, so the canvas notes it shows the last valid one.
// `decorations`: the head selector and messages (off in slides and canvas-only pictures).
Actions draw_canvas_panel(const Results& results, UiState& ui, const UiSettings& settings, bool config_rejected,
                          const FrameContext& ctx, bool decorations);

}  // namespace attn::gui
