#include "core/step_text.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "core/masked_score.h"
#include "core/softmax.h"

namespace attn {

namespace {

// One score of a (B, H, L, S) tensor, whatever its strides.
float score_at(const Tensor& t, int b, int h, int i, int j) { return t.at({b, h, i, j}); }

// The row's largest softmax weight, as the forward computes weights (core/softmax.h):
// the largest entry's exponential is exp(0) = 1, so its weight is 1 / sum.
float max_softmax_weight(const std::vector<float>& row) {
    const int64_t n = static_cast<int64_t>(row.size());
    if (n == 0) return 0.0f;
    const float row_max = softmax_row_max(row.data(), n);
    if (!std::isfinite(row_max)) return 0.0f;
    std::vector<float> exps(row.size());
    softmax_exponentials(row.data(), n, row_max, exps.data());
    return 1.0f / lane_sum(exps.data(), n);
}

}  // namespace

ScalingEffect scaling_effect(const Trace& trace, int batch_item, int head, int row) {
    ScalingEffect e;
    const Step* scores = trace.find(StepId::AttnScores);
    const Step* weights = trace.find(StepId::AttnWeights);
    if (!scores || !weights || scores->tensor.rank() != 4) return e;
    const Tensor& t = scores->tensor;
    if (batch_item < 0 || head < 0 || row < 0 || batch_item >= t.dim(0) || head >= t.dim(1) || row >= t.dim(2)) return e;
    const int S = static_cast<int>(t.dim(3));
    const float scale = trace.config.scale_factor();  // what attn_scaled multiplied by
    // The mask applies to both versions: read which keys survived from the scaled+masked input of the softmax.
    // A hidden key holds -inf or the finite fill there (-1e20, finfo.min).
    const Step* masked = weights->has_primary_source() ? trace.find(weights->primary_source()) : nullptr;
    const float fill = trace.config.has_mask() ? masked_score_fill(trace.config.mask_spec().fill, trace.config.dtype) : -INFINITY;
    std::vector<float> unscaled(static_cast<size_t>(S)), scaled(static_cast<size_t>(S));
    for (int j = 0; j < S; ++j) {
        const float s = score_at(t, batch_item, head, row, j);
        const bool allowed = !masked || !is_masked_score(masked->tensor.at({batch_item, head, row, j}), fill);
        unscaled[static_cast<size_t>(j)] = allowed ? s : -INFINITY;
        scaled[static_cast<size_t>(j)] = allowed ? s * scale : -INFINITY;
        if (allowed) e.largest_score = std::max(e.largest_score, std::fabs(s));
    }
    e.max_weight_scaled = max_softmax_weight(scaled);
    e.max_weight_unscaled = max_softmax_weight(unscaled);
    e.valid = true;
    return e;
}

bool is_fully_masked_row(const Trace& trace, int batch_item, int head, int row) {
    const int H = trace.config.H(), L = trace.config.L();
    if (batch_item < 0 || head < 0 || row < 0 || head >= H || row >= L) return false;
    const size_t flag = (static_cast<size_t>(batch_item) * static_cast<size_t>(H) + static_cast<size_t>(head)) *
                            static_cast<size_t>(L) + static_cast<size_t>(row);
    return flag < trace.fully_masked_rows.size() && trace.fully_masked_rows[flag] != 0;
}

}  // namespace attn
