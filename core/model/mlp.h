// The position-wise MLP of a transformer layer: fc2(GELU(fc1(x))).
#pragma once

#include "core/dims.h"
#include "core/model/model.h"

namespace attn {

// The exact GELU, x * 0.5 * (1 + erf(x / sqrt(2))) (torch's default, not the tanh form).
float gelu(float x);

// The three intermediates of one MLP, for tests and traces.
struct MlpResult {
    Mat hidden;     // (N, F)  x fc1^T + b1
    Mat activated;  // (N, F)  GELU(hidden)
    Mat out;        // (N, D)  activated fc2^T + b2
};
// x: (N, D), usually LN2 of the residual stream.
MlpResult mlp_forward(const Eigen::Ref<const Mat>& x, const LayerWeights& layer);

}  // namespace attn
