// The words of each step: a title, a formula and a short explanation for learners.
// Kept apart from the arithmetic so attention.cpp reads like the math.
#pragma once

#include <string>

#include "core/config.h"
#include "core/trace.h"

namespace attn {

struct StepText {
    std::string title;
    std::string formula;
    std::string explanation;
};

// Text for step `id` under `config`; the explanation quotes the configuration's real sizes.
StepText describe_step(StepId id, const AttentionConfig& config);

// What a step that is not a view does to storage, from what the step really is
// ("a copy: torch.cat writes a new buffer" for the stacked concat); "" for other steps.
std::string copy_badge(StepId id, const AttentionConfig& config);

// One query row's softmax with and without the 1/sqrt(d_h) division, from the trace's
// unscaled scores (B, H, L, S): what the scaling step really changed in this example.
struct ScalingEffect {
    bool valid = false;
    float largest_score = 0;         // largest |score| in the row before scaling (finite ones)
    float max_weight_scaled = 0;     // the row's largest softmax weight, as computed
    float max_weight_unscaled = 0;   // the same without dividing by sqrt(d_h)
};
ScalingEffect scaling_effect(const Trace& trace, int batch_item, int head, int row);
// A sentence on those numbers for the inspector.
std::string describe_scaling_effect(const ScalingEffect& effect, int head_dim);

// For query row `row` of `head` in `batch_item`: "" for an ordinary row; when the trace
// flags the row in fully_masked_rows, why its weights are all zero (not NaN).
std::string fully_masked_row_note(const Trace& trace, int batch_item, int head, int row);

}  // namespace attn
