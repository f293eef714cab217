// The numbers behind the learner notes of app/text/step_text.h: what the 1/sqrt(d_h)
// scaling changed in a row, and whether a row was fully masked. The words themselves
// live in the message catalogue, so the trace holds no prose.
#pragma once

#include "core/config.h"
#include "core/trace.h"

namespace attn {

// One query row's softmax with and without the 1/sqrt(d_h) division, from the trace's
// unscaled scores (B, H, L, S): what the scaling step really changed in this example.
struct ScalingEffect {
    bool valid = false;
    float largest_score = 0;         // largest |score| in the row before scaling (finite ones)
    float max_weight_scaled = 0;     // the row's largest softmax weight, as computed
    float max_weight_unscaled = 0;   // the same without dividing by sqrt(d_h)
};
ScalingEffect scaling_effect(const Trace& trace, int batch_item, int head, int row);
// True when the trace flags query row `row` of `head` in `batch_item` as fully masked
// (every key -inf): its weights are all zero, not NaN. False for out-of-range indices.
bool is_fully_masked_row(const Trace& trace, int batch_item, int head, int row);

}  // namespace attn
