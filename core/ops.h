// The operations of one attention forward, each a small named function (llm.c style).
//
// Whole-tensor ops take and return Tensors (views where PyTorch would make a view);
// per-head kernels work on one (b, h) slice, dense row-major (L, S) or (N, d_h)
// blocks, so the forward can run heads in parallel as a composition of these.
// Vocabulary as in dims.h: B, L, S, E, H, d_h; N is L or S.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/config.h"
#include "core/dims.h"
#include "core/rng.h"
#include "core/tensor.h"

namespace attn {

// ---- whole-tensor ops -------------------------------------------------------------

// x W^T + b.   x: (B, N, in) contiguous; w: (out, in); b: (out) or empty  ->  (B, N, out)
Tensor linear(const Tensor& x, const Eigen::Ref<const Mat>& w, const Vec& b, std::vector<DimRole> roles);
// x [W_0; W_1; ...]^T + b, one product per part (the fused qkv: W_q, W_k, W_v), so each
// part's columns equal linear(x, W_i) to the bit on any processor.
//   x: (B, N, in); parts: (out_i, in) each; b: (sum out_i) or empty  ->  (B, N, sum out_i)
Tensor linear_parts(const Tensor& x, const std::vector<Eigen::Ref<const Mat>>& parts, const Vec& b,
                    std::vector<DimRole> roles);
// One small projection per head (the stacked variant): head h uses rows [h*d_h, (h+1)*d_h)
// of w and b.   x: (B, N, in)  ->  (B, H, N, d_h), contiguous.
Tensor per_head_linear(const Tensor& x, const Mat& w, const Vec& b, int num_heads, DimRole position);
// Columns [part*width, (part+1)*width) of a (B, N, parts*width) tensor, as a view.
Tensor slice_columns(const Tensor& x, int part, int64_t width, DimRole position);
// (B, N, E) -> (B, N, H, d_h), a view: the last dimension read as heads x head width.
Tensor split_heads(const Tensor& x, int num_heads, DimRole position);
// (B, N, H, d_h) <-> (B, H, N, d_h), a view with swapped strides.
Tensor swap_heads_and_positions(const Tensor& x);
// (B, L, H, d_h) or, transposed first, (B, H, L, d_h) -> (B, L, E): a contiguous copy then
// a view (what .contiguous().view() and torch.cat both produce).
Tensor merge_heads(const Tensor& tokens_first);

// ---- per-head kernels: one (b, h) slice ------------------------------------------

// Head (b, h) of a (B, H, N, d_h) tensor with unit last stride, copied into a dense
// (N, d_h) matrix: strided GEMM operands were 3-7x slower than a copy.
Mat head_block(const Tensor& heads, int64_t b, int64_t h);
// scores = q k^T.   q: (L, d_h), k: (S, d_h), scores: (L, S)
void attention_scores(const Mat& q, const Mat& k, MatMap scores);
// The factor scores are multiplied by: 1/sqrt(d_h), as float32.
float score_scale(int64_t head_dim);
// scaled = scores * factor   (L, S)
void scale_scores(const ConstMatMap& scores, float factor, MatMap scaled);

// Row softmax over keys with -inf entries exactly 0 (core/softmax.h); flags fully masked rows.
void softmax_rows(const ConstMatMap& scores, MatMap weights, uint8_t* row_flags);
// The random stream of head (b, h)'s dropout: one per head, so the same cells drop
// whatever the thread count. Draw i*S + j decides cell (i, j).
Rng dropout_stream(uint64_t seed, int64_t b, int64_t h);
// 1/(1-p): what a surviving weight is multiplied by.
float dropout_keep_scale(float p);
// Inverted dropout: each cell zeroed with probability p (a draw below p), survivors times 1/(1-p).
void dropout(const ConstMatMap& weights, float p, Rng& rng, MatMap dropped);
// context = weights v.   weights: (L, S), v: (S, d_h), context: (L, d_h)
void weighted_sum(const ConstMatMap& weights, const Mat& v, MatMap context);

// ---- running ---------------------------------------------------------------------

// Flushes denormals to zero on this thread while alive: softmax over wide score ranges
// produces many tiny exponentials, and denormal arithmetic is several times slower.
// The only place the core touches the floating-point control register.
class FlushDenormals {
public:
    FlushDenormals();
    ~FlushDenormals();
    FlushDenormals(const FlushDenormals&) = delete;
    FlushDenormals& operator=(const FlushDenormals&) = delete;

private:
    unsigned saved_ = 0;
};

// Calls body(i) for i in [0, count) on all OpenMP threads (heads are independent),
// each thread flushing denormals; Eigen stays single-threaded inside.
// `work_per_item` (multiply-adds of one item, e.g. L * S * d_h) keeps small forwards on
// the calling thread: waking a second thread costs microseconds on an idle machine but up
// to a scheduler time slice (tens of ms) on a loaded one, far more than a tiny head.
void for_each_head(int64_t count, const std::function<void(int64_t)>& body, int64_t work_per_item);

}  // namespace attn
