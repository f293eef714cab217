// The controls' "Mask" section: which keys each query may not see (presets that combine,
// the window size, valid lengths down to 0) and what the masked scores are filled with.
#pragma once

#include "app/gui/state/results.h"
#include "app/gui/state/session.h"
#include "app/gui/views/controls/view_controls_widgets.h"

namespace attn::gui {

// Edits `session` (a copy the controls hand back); `results` says how many query rows
// the last trace left without any key, and what they became.
SectionEdit draw_mask_controls(Session& session, const Results& results, const ControlsContext& ctx);

}  // namespace attn::gui
