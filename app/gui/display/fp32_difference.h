// The per-step difference from float32 (View > Difference from float32): when the
// configuration computes in bfloat16 or float16, the worker runs the core's forward a
// second time with dtype float32 on the same problem, and this turns the lower-precision
// trace into one whose every step holds |x - x_fp32|, element by element. The window
// then draws that trace like any other (display_model.h gives it one 0..max colour scale
// per step), so the learner sees where rounding grows: the projections, the scores, and
// why Llama computes the softmax in float32. Nothing of attention is recomputed here.
// Pure logic: no GL, no ImGui.
#pragma once

#include "core/message.h"
#include "core/trace.h"

namespace attn::gui {

// Overwrites `lowered` (a trace the caller owns and shares with nobody) with
// |lowered - float32| per step: both traces must come from the same problem and differ
// only in dtype. Views keep sharing their base's storage (the storage strip stays true).
// Cells both traces mask (-inf, or a fill at or below kFloatMaskHidesKey) stay -inf, so
// masked cells are drawn as masked, not as the difference of two fill values. The
// weights are dropped (a projection is drawn as its result, not as X W^T + b). Returns
// an error message, leaving `lowered` untouched, when the steps do not match.
Message make_difference_trace(Trace& lowered, const Trace& float32);

}  // namespace attn::gui
