// LayerNorm over the last axis, as torch.nn.LayerNorm: biased variance (divide by D).
#pragma once

#include "core/dims.h"
#include "core/model/model.h"

namespace attn {

// x: (N, D) -> (N, D); each row normalised to mean 0, variance 1, then scaled and shifted.
Mat layer_norm(const Eigen::Ref<const Mat>& x, const NormWeights& norm, float eps);

}  // namespace attn
