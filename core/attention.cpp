// The attention forward. Sections:
//   [1] Recording steps      StepRecorder appends named tensors with their text
//   [2] Projections          x W^T + b for the split, fused and stacked variants
//   [3] Per-head attention   scores, scale, mask, softmax, dropout, weighted sum
//   [4] run_attention        the steps in order, per variant
#include "core/attention.h"

#include <cmath>
#include <limits>

#ifdef _OPENMP
#include <omp.h>
#endif
#if defined(__SSE__)
#include <xmmintrin.h>
#endif

#include "core/rng.h"
#include "core/softmax.h"

namespace attn {
namespace {

// ---------------------------------------------------------------------------
// [1] Recording steps
// ---------------------------------------------------------------------------
struct StepRecorder {
    Trace trace;

    const Tensor& add(const std::string& name, StepKind kind, Tensor tensor, std::vector<std::string> sources) {
        Step step;
        step.name = name;
        step.kind = kind;
        if (!sources.empty()) {
            const Step* first = trace.find(sources.front());
            step.is_view = first && tensor.shares_storage_with(first->tensor);
        }
        step.tensor = std::move(tensor);
        step.sources = std::move(sources);
        trace.steps.push_back(std::move(step));
        return trace.steps.back().tensor;
    }
};

// Flush denormals to zero while computing: softmax over wide score ranges produces
// many tiny exponentials, and denormal arithmetic is several times slower.
class FlushDenormals {
public:
    FlushDenormals() {
#if defined(__SSE__)
        saved_ = _mm_getcsr();
        _mm_setcsr(saved_ | 0x8040);  // FTZ | DAZ
#endif
    }
    ~FlushDenormals() {
#if defined(__SSE__)
        _mm_setcsr(saved_);
#endif
    }
    FlushDenormals(const FlushDenormals&) = delete;
    FlushDenormals& operator=(const FlushDenormals&) = delete;

private:
    unsigned saved_ = 0;
};

// ---------------------------------------------------------------------------
// [2] Projections
// ---------------------------------------------------------------------------

// x: (B, N, in) contiguous; w: (out, in); b: (out) or empty  ->  (B, N, out)
Tensor linear(const Tensor& x, const Eigen::Ref<const Mat>& w, const Vec& b, std::vector<std::string> dim_names) {
    const int64_t rows = x.dim(0) * x.dim(1);
    Tensor y = Tensor::uninitialized({x.dim(0), x.dim(1), w.rows()}, std::move(dim_names));
    ConstMatMap x_rows(x.data(), rows, x.dim(2));
    MatMap y_rows(y.mutable_data(), rows, w.rows());
    y_rows.noalias() = x_rows * w.transpose();
    if (b.size() > 0) y_rows.rowwise() += b;
    return y;
}

// Stacked variant: head h is its own module with weight rows [h*d_h, (h+1)*d_h).
// x: (B, N, in)  ->  (B, H, N, d_h), contiguous, one head block after another.
Tensor per_head_linear(const Tensor& x, const Mat& w, const Vec& b, int num_heads, const char* length_name) {
    const int64_t B = x.dim(0), N = x.dim(1), dh = w.rows() / num_heads;
    Tensor y = Tensor::uninitialized({B, num_heads, N, dh}, {"B", "H", length_name, "d_h"});
    ConstMatMap x_rows(x.data(), B * N, x.dim(2));
    for (int h = 0; h < num_heads; ++h) {
        const Mat head_out = x_rows * w.middleRows(h * dh, dh).transpose();  // (B*N, d_h)
        for (int64_t bi = 0; bi < B; ++bi) {
            MatMap block(y.mutable_data() + (bi * num_heads + h) * N * dh, N, dh);
            block = head_out.middleRows(bi * N, N);
            if (b.size() > 0) block.rowwise() += b.segment(h * dh, dh);
        }
    }
    return y;
}

// ---------------------------------------------------------------------------
// [3] Per-head attention
// ---------------------------------------------------------------------------

// Copies head (b, h) of a (B, H, N, d_h) tensor with unit last stride into a dense
// (N, d_h) matrix: strided GEMM operands were 3-7x slower than a copy (PERF_NOTES).
Mat head_block(const Tensor& heads, int64_t b, int64_t h) {
    const auto& st = heads.strides();
    const float* first = heads.data() + b * st[0] + h * st[1];
    return ConstStridedMap(first, heads.dim(2), heads.dim(3), Eigen::OuterStride<>(st[2]));
}

struct HeadMaps {  // the (B, H, L, S) tensors written by the per-head loop
    Tensor scores, scaled, masked, weights, dropped;
    Tensor context;  // (B, H, L, d_h)
    std::vector<uint8_t> fully_masked;  // (B, H, L)
};

bool is_masked(const AttentionConfig& c, const std::vector<uint8_t>& custom_mask, int64_t b, int64_t i, int64_t j) {
    if (c.mask == MaskKind::Causal && j > i) return true;
    if (c.mask == MaskKind::Padding) {
        const int valid = c.valid_lengths.size() == 1 ? c.valid_lengths[0] : c.valid_lengths[static_cast<size_t>(b)];
        if (j >= valid) return true;
    }
    return !custom_mask.empty() && custom_mask[static_cast<size_t>(i * c.S() + j)] != 0;
}

HeadMaps attend_per_head(const AttentionConfig& c, const Tensor& q_heads, const Tensor& k_heads, const Tensor& v_heads,
                         const std::vector<uint8_t>& custom_mask) {
    const int64_t B = c.batch, H = c.H(), L = c.L(), S = c.S(), dh = c.head_dim();
    const bool has_mask = c.mask != MaskKind::None || !custom_mask.empty();
    const bool has_dropout = c.dropout > 0.0f;
    const std::vector<std::string> map_dims = {"B", "H", "L", "S"};
    HeadMaps m;
    m.scores = Tensor::uninitialized({B, H, L, S}, map_dims);
    m.scaled = Tensor::uninitialized({B, H, L, S}, map_dims);
    if (has_mask) m.masked = Tensor::uninitialized({B, H, L, S}, map_dims);
    m.weights = Tensor::uninitialized({B, H, L, S}, map_dims);
    if (has_dropout) m.dropped = Tensor::uninitialized({B, H, L, S}, map_dims);
    m.context = Tensor::uninitialized({B, H, L, dh}, {"B", "H", "L", "d_h"});
    m.fully_masked.assign(static_cast<size_t>(B * H * L), 0);

    const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
    const float keep_scale = has_dropout ? 1.0f / (1.0f - c.dropout) : 1.0f;
    constexpr float neg_inf = -std::numeric_limits<float>::infinity();
    const auto map_of = [&](Tensor& t, int64_t bh) { return MatMap(t.mutable_data() + bh * L * S, L, S); };

    // Heads are independent: parallelise over (b, h); Eigen runs single-threaded inside.
#pragma omp parallel
    {
        FlushDenormals flush;
#pragma omp for schedule(dynamic)
        for (int64_t bh = 0; bh < B * H; ++bh) {
            const int64_t b = bh / H, h = bh % H;
            const Mat q_h = head_block(q_heads, b, h);  // (L, d_h)
            const Mat k_h = head_block(k_heads, b, h);  // (S, d_h)
            const Mat v_h = head_block(v_heads, b, h);  // (S, d_h)

            MatMap scores = map_of(m.scores, bh);  // (L, S)
            scores.noalias() = q_h * k_h.transpose();
            MatMap scaled = map_of(m.scaled, bh);
            scaled = scores * scale;

            const float* softmax_in = scaled.data();
            if (has_mask) {
                MatMap masked = map_of(m.masked, bh);
                masked = scaled;
                for (int64_t i = 0; i < L; ++i)
                    for (int64_t j = 0; j < S; ++j)
                        if (is_masked(c, custom_mask, b, i, j)) masked(i, j) = neg_inf;
                softmax_in = masked.data();
            }
            MatMap weights = map_of(m.weights, bh);
            masked_softmax_rows(softmax_in, weights.data(), static_cast<int>(L), static_cast<int>(S),
                                m.fully_masked.data() + bh * L);

            const float* attend = weights.data();
            if (has_dropout) {
                MatMap dropped = map_of(m.dropped, bh);
                // One stream per (b, h): the same cells drop whatever the thread count.
                Rng rng = Rng::for_stream(c.dropout_seed, "dropout/" + std::to_string(b) + "/" + std::to_string(h));
                for (int64_t i = 0; i < L * S; ++i)
                    dropped.data()[i] = rng.uniform01() < c.dropout ? 0.0f : weights.data()[i] * keep_scale;
                attend = dropped.data();
            }
            MatMap context(m.context.mutable_data() + bh * L * dh, L, dh);
            context.noalias() = ConstMatMap(attend, L, S) * v_h;
        }
    }
    return m;
}

}  // namespace

// ---------------------------------------------------------------------------
// [4] run_attention
// ---------------------------------------------------------------------------
Result<Trace> run_attention(const AttentionConfig& c, const AttentionWeights& w, const AttentionInputs& inputs,
                            const std::vector<uint8_t>& custom_mask) {
    if (Status s = validate(c); !s) return Result<Trace>::failure(s.error());
    if (Status s = check_shapes(c, w, inputs); !s) return Result<Trace>::failure(s.error());
    if (!custom_mask.empty() && custom_mask.size() != static_cast<size_t>(c.L()) * static_cast<size_t>(c.S()))
        return Result<Trace>::failure("custom mask must have seq_len x kv_len entries");

    FlushDenormals flush;
    const int64_t B = c.batch, L = c.L(), S = c.S(), E = c.E(), H = c.H(), dh = c.head_dim();
    StepRecorder rec;
    rec.trace.config = c;
    rec.trace.weights = w;

    const Tensor x = rec.add("input", StepKind::Input, inputs.query.contiguous().view({B, L, E}, {"B", "L", "E"}), {});
    Tensor x_k = x, x_v = x;
    std::string key_source = "input", value_source = "input";
    if (c.is_cross()) {
        x_k = rec.add("key_input", StepKind::Input, inputs.key.contiguous().view({B, S, c.key_dim()}, {"B", "S", "kdim"}), {});
        x_v = rec.add("value_input", StepKind::Input, inputs.value.contiguous().view({B, S, c.value_dim()}, {"B", "S", "vdim"}), {});
        key_source = "key_input";
        value_source = "value_input";
    }

    Tensor q_heads, k_heads, v_heads;
    if (c.variant == Variant::Stacked) {
        q_heads = rec.add("q_heads", StepKind::Projection, per_head_linear(x, w.w_q, w.b_q, c.H(), "L"), {"input"});
        k_heads = rec.add("k_heads", StepKind::Projection, per_head_linear(x_k, w.w_k, w.b_k, c.H(), "S"), {key_source});
        v_heads = rec.add("v_heads", StepKind::Projection, per_head_linear(x_v, w.w_v, w.b_v, c.H(), "S"), {value_source});
    } else {
        Tensor q, k, v;
        if (c.variant == Variant::Fused) {
            Mat w_qkv(3 * E, E);  // (3E, E): W_q, W_k, W_v stacked
            w_qkv << w.w_q, w.w_k, w.w_v;
            Vec b_qkv;
            if (w.has_bias()) {
                b_qkv.resize(3 * E);
                b_qkv << w.b_q, w.b_k, w.b_v;
            }
            const Tensor qkv = rec.add("qkv", StepKind::Projection, linear(x, w_qkv, b_qkv, {"B", "L", "3E"}), {"input"});
            const auto slice = [&](int part) { return qkv.narrow(2, part * E, E).view({B, L, E}, {"B", "L", "E"}); };
            q = rec.add("q", StepKind::Slice, slice(0), {"qkv"});
            k = rec.add("k", StepKind::Slice, slice(1), {"qkv"});
            v = rec.add("v", StepKind::Slice, slice(2), {"qkv"});
        } else {
            q = rec.add("q", StepKind::Projection, linear(x, w.w_q, w.b_q, {"B", "L", "E"}), {"input"});
            k = rec.add("k", StepKind::Projection, linear(x_k, w.w_k, w.b_k, {"B", "S", "E"}), {key_source});
            v = rec.add("v", StepKind::Projection, linear(x_v, w.w_v, w.b_v, {"B", "S", "E"}), {value_source});
        }
        const Tensor q_split = rec.add("q_split", StepKind::View, q.view({B, L, H, dh}, {"B", "L", "H", "d_h"}), {"q"});
        const Tensor k_split = rec.add("k_split", StepKind::View, k.view({B, S, H, dh}, {"B", "S", "H", "d_h"}), {"k"});
        const Tensor v_split = rec.add("v_split", StepKind::View, v.view({B, S, H, dh}, {"B", "S", "H", "d_h"}), {"v"});
        q_heads = rec.add("q_heads", StepKind::Transpose, q_split.transpose(1, 2), {"q_split"});
        k_heads = rec.add("k_heads", StepKind::Transpose, k_split.transpose(1, 2), {"k_split"});
        v_heads = rec.add("v_heads", StepKind::Transpose, v_split.transpose(1, 2), {"v_split"});
    }

    HeadMaps maps = attend_per_head(c, q_heads, k_heads, v_heads, custom_mask);
    rec.add("attn_scores", StepKind::Scores, std::move(maps.scores), {"q_heads", "k_heads"});
    rec.add("attn_scaled", StepKind::Scale, std::move(maps.scaled), {"attn_scores"});
    std::string weights_source = "attn_scaled";
    if (!maps.masked.empty()) {
        rec.add("attn_masked", StepKind::Mask, std::move(maps.masked), {"attn_scaled"});
        weights_source = "attn_masked";
    }
    rec.add("attn_weights", StepKind::Softmax, std::move(maps.weights), {weights_source});
    std::string attend_source = "attn_weights";
    if (!maps.dropped.empty()) {
        rec.add("attn_dropped", StepKind::Dropout, std::move(maps.dropped), {"attn_weights"});
        attend_source = "attn_dropped";
    }
    const Tensor context = rec.add("context", StepKind::WeightedSum, std::move(maps.context), {attend_source, "v_heads"});
    rec.trace.fully_masked_rows = std::move(maps.fully_masked);

    Tensor concat;
    if (c.variant == Variant::Stacked) {
        // torch.cat of the heads' (B, L, d_h) outputs along the last dimension.
        concat = rec.add("concat", StepKind::Concat,
                         context.transpose(1, 2).contiguous(true).view({B, L, E}, {"B", "L", "E"}), {"context"});
    } else {
        const Tensor context_split = rec.add("context_split", StepKind::Transpose, context.transpose(1, 2), {"context"});
        concat = rec.add("concat", StepKind::Concat, context_split.contiguous(true).view({B, L, E}, {"B", "L", "E"}),
                         {"context_split"});
    }
    const Tensor& out = rec.add("out", StepKind::Projection, linear(concat, w.w_o, w.b_o, {"B", "L", "E"}), {"concat"});
    // Finite inputs can still overflow float32 in a dot product; say so rather than
    // hand the learner a trace full of NaN.
    if (!out.all_finite())
        return Result<Trace>::failure("the scores overflow float32 (inputs or weights are too large, e.g. |x| ~ 1e20); "
                                      "scale them down");
    return std::move(rec.trace);
}

Result<Trace> run_attention(const AttentionConfig& config) {
    if (Status s = validate(config); !s) return Result<Trace>::failure(s.error());
    return run_attention(config, default_weights(config), default_inputs(config));
}

}  // namespace attn
