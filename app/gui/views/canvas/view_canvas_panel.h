// The canvas panel: the canvas with what sits on it: the head selector (top right), the
// last compute error, "computing...", and the first-trace placeholder.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/window/frame_context.h"
#include "app/gui/state/results.h"
#include "app/gui/state/session.h"
#include "app/gui/state/settings.h"
#include "app/gui/state/ui_state.h"

namespace attn::gui {

// Draws into the current window (the caller has begun it). When the session's edited
// configuration cannot run, the canvas notes it shows the last valid one; a mask painted
// on the canvas comes back as a session edit with config_changed.
// `decorations`: the head selector and messages (off in slides and canvas-only pictures).
Actions draw_canvas_panel(const Results& results, const Session& session, UiState& ui, const UiSettings& settings,
                          const FrameContext& ctx, bool decorations);

}  // namespace attn::gui
