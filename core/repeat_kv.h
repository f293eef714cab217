// Grouped-query and multi-query attention: fewer key/value heads than query heads.
//
// Llama's `repeat_kv` copies each key/value head to the query heads of its group:
// (B, KV, S, d_h) -> (B, H, S, d_h), query head h reads key/value head h / (H / KV),
// so heads g*n_rep .. g*n_rep + n_rep - 1 share key head g (n_rep = H / KV), as
// torch's `repeat_interleave(n_rep, dim=1)` lays them out. KV == H is plain
// multi-head attention; KV == 1 is multi-query attention.
#pragma once

#include <vector>

#include "core/result.h"
#include "core/tensor.h"

namespace attn {

// OK when 1 <= num_kv_heads <= num_heads and num_kv_heads divides num_heads; otherwise
// a message naming both numbers and the valid choices.
Status check_kv_heads(int num_heads, int num_kv_heads);

// kv: (B, KV, S, d_h), any strides -> a new contiguous (B, H, S, d_h) named
// (B, H, S, d_h). `num_heads` must pass check_kv_heads with KV = kv.dim(1).
Tensor repeat_kv(const Tensor& kv, int num_heads);

// The key/value head query head `query_head` reads: query_head / (H / KV).
int kv_head_of(int query_head, int num_heads, int num_kv_heads);
// The query heads that read key/value head `kv_head`, ascending (for colouring groups).
std::vector<int> query_heads_sharing(int kv_head, int num_heads, int num_kv_heads);

}  // namespace attn
