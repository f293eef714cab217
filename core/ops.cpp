#include "core/ops.h"

#include <cmath>
#include <limits>
#include <string>

#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include "core/softmax.h"

namespace attn {

// Every projection of q, k and v (and the output's) is this one product into a fresh, aligned
// matrix of the same shape, whichever variant asks for it. Eigen picks a product's kernel,
// blocking and summation order from its shape, the destination's alignment and the
// processor's cache sizes, so "the same numbers in every variant" holds on every machine
// only when the variants run the very same product: one (rows, out) product per weight.
static Mat project_rows(const ConstMatMap& x_rows, const Eigen::Ref<const Mat>& w) {
    Mat y = x_rows * w.transpose();  // (rows, out)
    return y;
}

Tensor linear(const Tensor& x, const Eigen::Ref<const Mat>& w, const Vec& b, std::vector<DimRole> roles) {
    return linear_parts(x, {w}, b, std::move(roles));
}

Tensor linear_parts(const Tensor& x, const std::vector<Eigen::Ref<const Mat>>& parts, const Vec& b, std::vector<DimRole> roles) {
    const int64_t rows = x.dim(0) * x.dim(1);
    int64_t width = 0;
    for (const auto& w : parts) width += w.rows();
    Tensor y = Tensor::uninitialized({x.dim(0), x.dim(1), width}, std::move(roles));
    ConstMatMap x_rows(x.data(), rows, x.dim(2));
    MatMap y_rows(y.mutable_data(), rows, width);
    int64_t column = 0;
    for (const auto& w : parts) {
        y_rows.middleCols(column, w.rows()) = project_rows(x_rows, w);  // (B*N, out_part)
        column += w.rows();
    }
    if (b.size() > 0) y_rows.rowwise() += b;
    return y;
}

Tensor per_head_linear(const Tensor& x, const Mat& w, const Vec& b, int num_heads, DimRole position) {
    const int64_t B = x.dim(0), N = x.dim(1), dh = w.rows() / num_heads;
    Tensor y = Tensor::uninitialized({B, num_heads, N, dh}, {DimRole::Batch, DimRole::Head, position, DimRole::HeadDim});
    ConstMatMap x_rows(x.data(), B * N, x.dim(2));
    // Every head's small module at once, then cut per head: one head's product alone sums
    // in another order than the split forward's (see project_rows), so the three variants
    // agree exactly and View > Compare shows A − B = 0 at every step.
    const Mat all_heads = project_rows(x_rows, w);  // (B*N, H*d_h)
    for (int h = 0; h < num_heads; ++h) {
        for (int64_t bi = 0; bi < B; ++bi) {
            MatMap block(y.mutable_data() + (bi * num_heads + h) * N * dh, N, dh);
            block = all_heads.block(bi * N, h * dh, N, dh);
            if (b.size() > 0) block.rowwise() += b.segment(h * dh, dh);
        }
    }
    return y;
}

Tensor slice_columns(const Tensor& x, int part, int64_t width, DimRole position) {
    return x.narrow(2, part * width, width).view({x.dim(0), x.dim(1), width}, {DimRole::Batch, position, DimRole::Embedding});
}

Tensor split_heads(const Tensor& x, int num_heads, DimRole position) {
    return x.view({x.dim(0), x.dim(1), num_heads, x.dim(2) / num_heads},
                  {DimRole::Batch, position, DimRole::Head, DimRole::HeadDim});
}

Tensor swap_heads_and_positions(const Tensor& x) { return x.transpose(1, 2); }

Tensor merge_heads(const Tensor& tokens_first) {
    const int64_t B = tokens_first.dim(0), L = tokens_first.dim(1), E = tokens_first.dim(2) * tokens_first.dim(3);
    return tokens_first.contiguous(true).view({B, L, E}, {DimRole::Batch, DimRole::QueryPos, DimRole::Embedding});
}

Mat head_block(const Tensor& heads, int64_t b, int64_t h) {
    const auto& st = heads.strides();
    const float* first = heads.data() + b * st[0] + h * st[1];
    return ConstStridedMap(first, heads.dim(2), heads.dim(3), Eigen::OuterStride<>(st[2]));
}

void attention_scores(const Mat& q, const Mat& k, MatMap scores) { scores.noalias() = q * k.transpose(); }

float score_scale(int64_t head_dim) { return 1.0f / std::sqrt(static_cast<float>(head_dim)); }

void scale_scores(const ConstMatMap& scores, float factor, MatMap scaled) { scaled = scores * factor; }

void softmax_rows(const ConstMatMap& scores, MatMap weights, uint8_t* row_flags) {
    masked_softmax_rows(scores.data(), weights.data(), static_cast<int>(scores.rows()), static_cast<int>(scores.cols()),
                        row_flags);
}

Rng dropout_stream(uint64_t seed, int64_t b, int64_t h) {
    return Rng::for_stream(seed, "dropout/" + std::to_string(b) + "/" + std::to_string(h));
}

float dropout_keep_scale(float p) { return 1.0f / (1.0f - p); }

void dropout(const ConstMatMap& weights, float p, Rng& rng, MatMap dropped) {
    const float keep_scale = dropout_keep_scale(p);
    const int64_t n = weights.size();
    for (int64_t i = 0; i < n; ++i) dropped.data()[i] = rng.uniform01() < p ? 0.0f : weights.data()[i] * keep_scale;
}

void weighted_sum(const ConstMatMap& weights, const Mat& v, MatMap context) { context.noalias() = weights * v; }

FlushDenormals::FlushDenormals() {
#if defined(__SSE__)
    saved_ = _mm_getcsr();
    _mm_setcsr(saved_ | 0x8040);  // FTZ | DAZ
#endif
}

FlushDenormals::~FlushDenormals() {
#if defined(__SSE__)
    _mm_setcsr(saved_);
#endif
}

void for_each_head(int64_t count, const std::function<void(int64_t)>& body, int64_t work_per_item) {
    // Below ~2^21 multiply-adds in all (about 0.5 ms on one core) a team costs more than it
    // saves: waking it takes tens of microseconds, and when another process holds the second
    // core the team waits for it for milliseconds (a decode row at S_t = 1024, H = 16, is 2^20).
    constexpr int64_t kMinParallelWork = int64_t{1} << 21;
    [[maybe_unused]] const bool parallel = count > 1 && work_per_item > 0 && count > kMinParallelWork / work_per_item;
#pragma omp parallel if (parallel)
    {
        FlushDenormals flush;
#pragma omp for schedule(dynamic)
        for (int64_t i = 0; i < count; ++i) body(i);
    }
}

}  // namespace attn
