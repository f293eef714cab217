// nn.MultiheadAttention's extra key/value columns, which no mask ever hides.
//
// add_bias_kv: after the k and v projections, torch appends the learned row bias_k
//   (resp. bias_v) to every batch item: (B, S, W) -> (B, S + 1, W), W = H_kv * d_h.
// add_zero_attn: after the split into heads, torch appends a row of zeros to every
//   head: (B, H, S, d_h) -> (B, H, S + 1, d_h). Both together give S + 2 key columns,
//   the learned one first.
#pragma once

#include <vector>

#include "core/tensor.h"

namespace attn {

// x: (B, S, W), any strides; row: W values -> new contiguous (B, S + 1, W), the
// names of x kept. Every batch item gets the same last row (bias_k or bias_v).
Tensor append_bias_row(const Tensor& x, const std::vector<float>& row);

// heads: (B, H, S, d_h), any strides -> new contiguous (B, H, S + 1, d_h) whose last
// row of every head is zero (add_zero_attn), the names of heads kept.
Tensor append_zero_row(const Tensor& heads);

}  // namespace attn
