// A deliberately plain multi-head attention in double precision: loops only, no
// Eigen, no views. The core's every step is compared against it.
#pragma once

#include <cmath>
#include <limits>
#include <vector>

#include "core/attention.h"

namespace ref {

struct Result {
    std::vector<double> q, k, v;       // (B, L, E), (B, S, E), (B, S, E)
    std::vector<double> scaled;        // (B, H, L, S), before masking
    std::vector<double> weights;       // (B, H, L, S), after softmax
    std::vector<double> context;       // (B, H, L, d_h)
    std::vector<double> concat, out;   // (B, L, E)
};

inline std::vector<double> project(const attn::Tensor& x, const attn::Mat& w, const attn::Vec& b) {
    const int64_t rows = x.dim(0) * x.dim(1), in = x.dim(2), out = w.rows();
    const std::vector<float> xv = x.to_vector();
    std::vector<double> y(static_cast<size_t>(rows * out));
    for (int64_t r = 0; r < rows; ++r)
        for (int64_t o = 0; o < out; ++o) {
            double sum = b.size() ? b[o] : 0.0;
            for (int64_t i = 0; i < in; ++i) sum += double(xv[size_t(r * in + i)]) * w(o, i);
            y[size_t(r * out + o)] = sum;
        }
    return y;
}

inline bool masked(const attn::AttentionConfig& c, int64_t b, int64_t i, int64_t j) {
    if (c.mask == attn::MaskKind::Causal) return j > i;
    if (c.mask == attn::MaskKind::Padding) return j >= c.valid_lengths[c.valid_lengths.size() == 1 ? 0 : size_t(b)];
    return false;
}

// Dropout is not modelled: use p = 0.
inline Result attention(const attn::AttentionConfig& c, const attn::AttentionWeights& w, const attn::AttentionInputs& in) {
    const int64_t B = c.batch, L = c.L(), S = c.S(), E = c.E(), H = c.H(), D = c.head_dim();
    Result r;
    const attn::Tensor& xk = c.is_cross() ? in.key : in.query;
    const attn::Tensor& xv = c.is_cross() ? in.value : in.query;
    r.q = project(in.query, w.w_q, w.b_q);
    r.k = project(xk, w.w_k, w.b_k);
    r.v = project(xv, w.w_v, w.b_v);
    r.scaled.assign(size_t(B * H * L * S), 0);
    r.weights.assign(size_t(B * H * L * S), 0);
    r.context.assign(size_t(B * H * L * D), 0);
    r.concat.assign(size_t(B * L * E), 0);
    for (int64_t b = 0; b < B; ++b)
        for (int64_t h = 0; h < H; ++h)
            for (int64_t i = 0; i < L; ++i) {
                const size_t row = size_t(((b * H + h) * L + i) * S);
                double row_max = -std::numeric_limits<double>::infinity();
                for (int64_t j = 0; j < S; ++j) {
                    double dot = 0;
                    for (int64_t d = 0; d < D; ++d)
                        dot += r.q[size_t((b * L + i) * E + h * D + d)] * r.k[size_t((b * S + j) * E + h * D + d)];
                    r.scaled[row + size_t(j)] = dot / std::sqrt(double(D));
                    if (!masked(c, b, i, j)) row_max = std::max(row_max, r.scaled[row + size_t(j)]);
                }
                double sum = 0;
                for (int64_t j = 0; j < S; ++j) {
                    const double e = masked(c, b, i, j) ? 0.0 : std::exp(r.scaled[row + size_t(j)] - row_max);
                    r.weights[row + size_t(j)] = e;
                    sum += e;
                }
                for (int64_t j = 0; j < S; ++j) r.weights[row + size_t(j)] /= sum;
                for (int64_t d = 0; d < D; ++d) {
                    double acc = 0;
                    for (int64_t j = 0; j < S; ++j) acc += r.weights[row + size_t(j)] * r.v[size_t((b * S + j) * E + h * D + d)];
                    r.context[size_t(((b * H + h) * L + i) * D + d)] = acc;
                    r.concat[size_t((b * L + i) * E + h * D + d)] = acc;
                }
            }
    std::vector<float> concat_f(r.concat.begin(), r.concat.end());
    r.out = project(attn::Tensor::from_values({B, L, E}, {"B", "L", "E"}, concat_f), w.w_o, w.b_o);
    return r;
}

// Largest |a - b| over all elements of a recorded step vs a reference, ignoring
// positions where both are -inf.
inline double max_abs_diff(const attn::Tensor& got, const std::vector<double>& expected) {
    const std::vector<float> values = got.to_vector();
    if (values.size() != expected.size()) return std::numeric_limits<double>::infinity();
    double worst = 0;
    for (size_t i = 0; i < values.size(); ++i) worst = std::max(worst, std::abs(double(values[i]) - expected[i]));
    return worst;
}

}  // namespace ref
