// Rotary position embedding (RoPE), as Hugging Face's LlamaAttention and Meta's
// original code apply it to queries and keys after the split into heads.
//
// Coordinates of a head vector are grouped in pairs, and pair i at position p is
// turned by the angle p * base^(-2i/d_h). Two pairings exist:
//   half        (Hugging Face's rotate_half): column c pairs with c + d_h/2, and
//               cos/sin columns c and c + d_h/2 hold frequency c (cat(freqs, freqs)).
//   interleaved (the paper, Meta's complex-number code): columns 2i and 2i + 1 pair,
//               and both hold frequency i.
// x_rot = x * cos + rotate(x) * sin, with rotate(x) = (-x2, x1) for each pair (x1, x2).
// Everything is float32 in torch's order of operations: inv_freq = 1 / base^(2i/d_h),
// angle = position * inv_freq, then cos and sin.
#pragma once

#include <string>

#include "core/dims.h"
#include "core/dtype_round.h"
#include "core/result.h"
#include "core/tensor.h"

namespace attn {

enum class RopeStyle { Half, Interleaved };

// "half" / "interleaved" (the `--rope-style` names).
const char* to_string(RopeStyle style);
Result<RopeStyle> parse_rope_style(const std::string& text);

// The angles of positions position_offset .. position_offset + L - 1.
struct RopeTables {
    Mat cos;  // (L, d_h)
    Mat sin;  // (L, d_h)
};

// OK for an even head width >= 2, a finite base > 0 and an offset >= 0; otherwise a
// message that says what to change.
Status check_rope(int64_t head_dim, double base, int64_t position_offset);

// The cos and sin tables, (L, d_h) each. Call check_rope first (asserts otherwise).
RopeTables rope_tables(int64_t seq_len, int64_t head_dim, double base, int64_t position_offset, RopeStyle style);

// Rotates every head vector: x (B, N_heads, N, d_h), any strides, with tables of at
// least N rows (row n rotates position n) -> a new contiguous tensor of x's shape and
// names. With a lower `dtype`, the tables are rounded and each of x*cos, rotate(x)*sin
// and their sum is rounded, as the bf16/f16 emulation of the fixtures does.
Tensor apply_rope(const Tensor& x, const RopeTables& tables, RopeStyle style, DType dtype = DType::Float32);

// The frequency index of column `column`: column % (d_h/2) for half, column / 2 for
// interleaved (both columns of a pair share it).
int64_t rope_frequency(int64_t column, int64_t head_dim, RopeStyle style);
// inv_freq of frequency i as torch computes it in float32: 1 / base^(2i/d_h).
float rope_inv_freq(int64_t frequency, int64_t head_dim, double base);

// The column that coordinate `column` is paired with, and the sign its partner carries
// in rotate(x) at `column` (-1 for the first of a pair, +1 for the second).
int64_t rope_partner(int64_t column, int64_t head_dim, RopeStyle style, float* sign);

}  // namespace attn
