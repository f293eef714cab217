// A deliberately plain multi-head attention in double precision: loops only, no
// Eigen, no views. Every step the core records is compared against it (expected()).
#pragma once

#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/rng.h"

namespace ref {

struct Result {
    std::vector<double> input, key_input, value_input;  // (B, L, E), (B, S, kdim), (B, S, vdim)
    std::vector<double> qkv;                             // (B, L, 3E): q | k | v per token
    std::vector<double> q, k, v;                         // (B, L, E), (B, S, E), (B, S, E)
    std::vector<double> q_heads, k_heads, v_heads;       // (B, H, L, d_h), (B, H, S, d_h) x2
    std::vector<double> scores;                          // (B, H, L, S), q k^T
    std::vector<double> scaled;                          // (B, H, L, S), before masking
    std::vector<double> masked;                          // (B, H, L, S), -inf where masked
    std::vector<double> weights;                         // (B, H, L, S), after softmax
    std::vector<double> dropped;                         // (B, H, L, S), after dropout
    std::vector<double> context;                         // (B, H, L, d_h)
    std::vector<double> concat, out;                     // (B, L, E)
};

inline std::vector<double> to_double(const attn::Tensor& t) {
    const std::vector<float> v = t.to_vector();
    return std::vector<double>(v.begin(), v.end());
}

inline std::vector<double> project(const std::vector<double>& x, int64_t rows, int64_t in, const attn::Mat& w,
                                   const attn::Vec& b) {
    const int64_t out = w.rows();
    std::vector<double> y(static_cast<size_t>(rows * out));
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t o = 0; o < out; ++o) {
            double sum = b.size() ? b[o] : 0.0;
            for (int64_t i = 0; i < in; ++i) sum += x[size_t(r * in + i)] * w(o, i);
            y[size_t(r * out + o)] = sum;
        }
    return y;
}

// (B, N, H*D) -> (B, H, N, D)
inline std::vector<double> heads_first(const std::vector<double>& x, int64_t B, int64_t N, int64_t H, int64_t D) {
    std::vector<double> y(x.size());
    for (int64_t b = 0; b < B; ++b)
        for (int64_t n = 0; n < N; ++n)
            for (int64_t h = 0; h < H; ++h)
                for (int64_t d = 0; d < D; ++d) y[size_t(((b * H + h) * N + n) * D + d)] = x[size_t(((b * N + n) * H + h) * D + d)];
    return y;
}

inline bool masked(const attn::AttentionConfig& c, int64_t b, int64_t i, int64_t j) {
    if (c.mask == attn::MaskKind::Causal) return j > i;
    if (c.mask == attn::MaskKind::Padding) return j >= c.valid_lengths[c.valid_lengths.size() == 1 ? 0 : size_t(b)];
    return false;
}

// Dropout draws its keep/drop decisions from the same documented stream per (b, h)
// ("dropout/<b>/<h>", one uniform per cell in row order) and rescales in double.
inline Result attention(const attn::AttentionConfig& c, const attn::AttentionWeights& w, const attn::AttentionInputs& in) {
    const int64_t B = c.batch, L = c.L(), S = c.S(), E = c.E(), H = c.H(), D = c.head_dim();
    const double inf = std::numeric_limits<double>::infinity();
    Result r;
    r.input = to_double(in.query);
    if (c.is_cross()) {
        r.key_input = to_double(in.key);
        r.value_input = to_double(in.value);
    }
    const std::vector<double>& xk = c.is_cross() ? r.key_input : r.input;
    const std::vector<double>& xv = c.is_cross() ? r.value_input : r.input;
    r.q = project(r.input, B * L, E, w.w_q, w.b_q);
    r.k = project(xk, B * S, c.key_dim(), w.w_k, w.b_k);
    r.v = project(xv, B * S, c.value_dim(), w.w_v, w.b_v);
    r.qkv.assign(size_t(B * L * 3 * E), 0);
    if (S == L)
        for (int64_t t = 0; t < B * L; ++t)
            for (int64_t e = 0; e < E; ++e) {
                r.qkv[size_t(t * 3 * E + e)] = r.q[size_t(t * E + e)];
                r.qkv[size_t(t * 3 * E + E + e)] = r.k[size_t(t * E + e)];
                r.qkv[size_t(t * 3 * E + 2 * E + e)] = r.v[size_t(t * E + e)];
            }
    r.q_heads = heads_first(r.q, B, L, H, D);
    r.k_heads = heads_first(r.k, B, S, H, D);
    r.v_heads = heads_first(r.v, B, S, H, D);
    const size_t maps = size_t(B * H * L * S);
    r.scores.assign(maps, 0);
    r.scaled.assign(maps, 0);
    r.masked.assign(maps, 0);
    r.weights.assign(maps, 0);
    r.dropped.assign(maps, 0);
    r.context.assign(size_t(B * H * L * D), 0);
    r.concat.assign(size_t(B * L * E), 0);
    for (int64_t b = 0; b < B; ++b)
        for (int64_t h = 0; h < H; ++h) {
            attn::Rng rng = attn::Rng::for_stream(c.dropout_seed, "dropout/" + std::to_string(b) + "/" + std::to_string(h));
            for (int64_t i = 0; i < L; ++i) {
                const size_t row = size_t(((b * H + h) * L + i) * S);
                double row_max = -inf;
                for (int64_t j = 0; j < S; ++j) {
                    double dot = 0;
                    for (int64_t d = 0; d < D; ++d)
                        dot += r.q[size_t((b * L + i) * E + h * D + d)] * r.k[size_t((b * S + j) * E + h * D + d)];
                    r.scores[row + size_t(j)] = dot;
                    r.scaled[row + size_t(j)] = dot / std::sqrt(double(D));
                    r.masked[row + size_t(j)] = masked(c, b, i, j) ? -inf : r.scaled[row + size_t(j)];
                    if (!masked(c, b, i, j)) row_max = std::max(row_max, r.scaled[row + size_t(j)]);
                }
                double sum = 0;
                for (int64_t j = 0; j < S; ++j) {
                    const double e = masked(c, b, i, j) ? 0.0 : std::exp(r.scaled[row + size_t(j)] - row_max);
                    r.weights[row + size_t(j)] = e;
                    sum += e;
                }
                for (int64_t j = 0; j < S; ++j) {
                    r.weights[row + size_t(j)] = sum > 0 ? r.weights[row + size_t(j)] / sum : 0.0;  // fully masked: zeros
                    const bool drop = c.dropout > 0 && rng.uniform01() < c.dropout;
                    r.dropped[row + size_t(j)] = drop ? 0.0 : r.weights[row + size_t(j)] / (1.0 - double(c.dropout));
                }
                const std::vector<double>& attend = c.dropout > 0 ? r.dropped : r.weights;
                for (int64_t d = 0; d < D; ++d) {
                    double acc = 0;
                    for (int64_t j = 0; j < S; ++j) acc += attend[row + size_t(j)] * r.v[size_t((b * S + j) * E + h * D + d)];
                    r.context[size_t(((b * H + h) * L + i) * D + d)] = acc;
                    r.concat[size_t((b * L + i) * E + h * D + d)] = acc;
                }
            }
        }
    r.out = project(r.concat, B * L, E, w.w_o, w.b_o);
    return r;
}

// The reference values of a step, in the step's logical C order (views of q read as
// q does: q_split has q's order, context_split has concat's).
inline const std::vector<double>& expected(const Result& r, attn::StepId id) {
    using attn::StepId;
    switch (id) {
        case StepId::Input: return r.input;
        case StepId::KeyInput: return r.key_input;
        case StepId::ValueInput: return r.value_input;
        case StepId::Qkv: return r.qkv;
        case StepId::Q:
        case StepId::QSplit: return r.q;
        case StepId::K:
        case StepId::KSplit: return r.k;
        case StepId::V:
        case StepId::VSplit: return r.v;
        case StepId::QHeads: return r.q_heads;
        case StepId::KHeads: return r.k_heads;
        case StepId::VHeads: return r.v_heads;
        case StepId::AttnScores: return r.scores;
        case StepId::AttnScaled: return r.scaled;
        case StepId::AttnMasked: return r.masked;
        case StepId::AttnWeights: return r.weights;
        case StepId::AttnDropped: return r.dropped;
        case StepId::Context: return r.context;
        case StepId::ContextSplit:
        case StepId::Concat: return r.concat;
        case StepId::Out: return r.out;
        // A trained model's steps: checked against PyTorch in test_model_parity.cpp.
        case StepId::Tokens:
        case StepId::TokenEmbedding:
        case StepId::PositionEmbedding:
        case StepId::EmbeddingSum:
        case StepId::LayerInput:
        case StepId::Norm:
        case StepId::Residual:
        case StepId::NextTokenProbs:
        case StepId::PredictedTokens: break;
        case StepId::RopeCos:  // option steps: this reference models none of them (the torch_options
        case StepId::RopeSin:  // fixtures check them); an empty list fails any comparison
        case StepId::QRot:
        case StepId::KRot:
        case StepId::KCache:   // decode steps: checked row by row against the whole pass (test_decode.cpp)
        case StepId::VCache:
        case StepId::KRepeated:
        case StepId::VRepeated:
        case StepId::AttnWeightsAvg: {
            static const std::vector<double> none;
            return none;
        }
    }
    return r.out;  // not an attention step (a model step): callers never ask
}

// The largest |got - expected| over a step and where it is. Two equal infinities
// (a masked cell) agree; any other infinity or NaN is an infinite difference.
struct Difference {
    double worst = 0;
    size_t index = 0;          // flat index in logical C order
    double scale = 1;          // max(1, largest finite |expected|), for a relative tolerance
    bool size_mismatch = false;
};

inline Difference max_abs_diff(const attn::Tensor& got, const std::vector<double>& expected) {
    Difference d;
    const std::vector<float> values = got.to_vector();
    if (values.size() != expected.size()) {
        d.size_mismatch = true;
        d.worst = std::numeric_limits<double>::infinity();
        return d;
    }
    for (size_t i = 0; i < values.size(); ++i) {
        const double g = values[i], e = expected[i];
        if (std::isfinite(e)) d.scale = std::max(d.scale, std::abs(e));
        double diff = std::abs(g - e);
        if (std::isinf(g) && g == e) diff = 0;
        else if (!std::isfinite(diff)) diff = std::numeric_limits<double>::infinity();
        if (diff > d.worst || (i == 0 && diff == d.worst)) {
            d.worst = diff;
            d.index = i;
        }
    }
    return d;
}

// "[b=0, h=1, i=3, j=2]"-style multi-index of a flat index, for failure messages.
inline std::string index_text(const attn::Tensor& t, size_t flat) {
    std::vector<int64_t> idx(size_t(t.rank()));
    for (int d = t.rank() - 1; d >= 0; --d) {
        idx[size_t(d)] = int64_t(flat) % t.dim(d);
        flat /= size_t(t.dim(d));
    }
    std::string s = "[";
    for (int d = 0; d < t.rank(); ++d)
        s += (d ? ", " : "") + t.dim_names()[size_t(d)] + "=" + std::to_string(idx[size_t(d)]);
    return s + "]";
}

}  // namespace ref
