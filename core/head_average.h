// The head-averaged attention weights nn.MultiheadAttention returns by default
// (`average_attn_weights=True`): the mean over heads of the softmax weights.
#pragma once

#include "core/tensor.h"

namespace attn {

// weights: (B, H, L, S), any strides -> a new contiguous (B, L, S): sum over h, then / H
// (torch's `weights.mean(dim=1)`). Each row still sums to 1 when every head's row does.
Tensor average_heads(const Tensor& weights);

}  // namespace attn
