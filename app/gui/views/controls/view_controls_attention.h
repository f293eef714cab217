// The controls' sections about how scores become weights: "Scores" (the scale, whether
// masking comes before it, dropout), "Positions (RoPE)" and "Precision" (the emulated
// compute dtype).
#pragma once

#include "app/gui/state/session.h"
#include "app/gui/views/controls/view_controls_widgets.h"

namespace attn::gui {

// Each edits `session` (a copy the controls hand back) and says what it changed.
SectionEdit draw_scores_controls(Session& session, const ControlsContext& ctx);
SectionEdit draw_rope_controls(Session& session, const ControlsContext& ctx);
SectionEdit draw_precision_controls(Session& session, const ControlsContext& ctx);

}  // namespace attn::gui
