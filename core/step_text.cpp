#include "core/step_text.h"

#include <algorithm>
#include <cmath>
#include <vector>

namespace attn {

namespace {

// One score of a (B, H, L, S) tensor, whatever its strides.
float score_at(const Tensor& t, int b, int h, int i, int j) { return t.at({b, h, i, j}); }

float max_softmax_weight(const std::vector<float>& row) {
    float mx = -INFINITY;
    for (float x : row) mx = std::max(mx, x);
    if (!std::isfinite(mx)) return 0.0f;
    double sum = 0.0;
    for (float x : row) sum += std::isfinite(x) ? std::exp(static_cast<double>(x - mx)) : 0.0;
    return static_cast<float>(1.0 / sum);  // the max element contributes exp(0) = 1
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
    const Step* masked = weights->has_primary_source() ? trace.find(weights->primary_source()) : nullptr;
    std::vector<float> unscaled(static_cast<size_t>(S)), scaled(static_cast<size_t>(S));
    for (int j = 0; j < S; ++j) {
        const float s = score_at(t, batch_item, head, row, j);
        const bool allowed = !masked || std::isfinite(masked->tensor.at({batch_item, head, row, j}));
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
