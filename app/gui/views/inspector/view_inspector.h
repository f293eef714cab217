// The inspector: the hovered or pinned cell's indices and value, and where it came
// from (the dot product of q_i and k_j, the row's exponentials, ...), with numbers.
#pragma once

#include "app/gui/edits/painted_mask.h"
#include "app/gui/state/results.h"
#include "app/gui/state/ui_state.h"

namespace attn::gui {

// The cell hovered on `canvas` (else the pinned one) of `results`; `current_step` is the
// step on screen (a pin from another step says so). Follow / Unfollow for the pinned cell
// writes canvas.follow. `origins` (the session's mask file and painted cells) says which of
// them hides a masked cell when the trace's mask holds painted cells.
void draw_inspector(const Results& results, CanvasUi& canvas, int current_step, const MaskOrigins& origins = {});

}  // namespace attn::gui
