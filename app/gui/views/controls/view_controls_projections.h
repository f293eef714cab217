// The controls' sections about the learned matrices: "Projections" (key/value heads for
// grouped-query attention, the input width d_in, biases, no output projection) and
// "nn.MultiheadAttention extras" (bias_k/bias_v, the zero key, head-averaged weights).
#pragma once

#include "app/gui/state/session.h"
#include "app/gui/views/controls/view_controls_widgets.h"

namespace attn::gui {

// Each edits `session` (a copy the controls hand back) and says what it changed.
SectionEdit draw_projection_controls(Session& session, const ControlsContext& ctx);
SectionEdit draw_mha_extras_controls(Session& session, const ControlsContext& ctx);

}  // namespace attn::gui
