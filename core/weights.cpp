#include "core/weights.h"

#include <cmath>

#include "core/rng.h"

namespace attn {

// nn.Linear initialises W with kaiming_uniform(a = sqrt(5)), whose bound works out
// to 1/sqrt(fan_in), and b with U(-1/sqrt(fan_in), 1/sqrt(fan_in)).
static Mat linear_weight(uint64_t seed, const char* stream, int out_features, int in_features) {
    Rng rng = Rng::for_stream(seed, stream);
    const float bound = 1.0f / std::sqrt(static_cast<float>(in_features));
    Mat w(out_features, in_features);
    for (Eigen::Index i = 0; i < w.size(); ++i) w.data()[i] = rng.uniform(-bound, bound);
    return w;
}

static Vec linear_bias(uint64_t seed, const char* stream, int out_features, int in_features) {
    Rng rng = Rng::for_stream(seed, stream);
    const float bound = 1.0f / std::sqrt(static_cast<float>(in_features));
    Vec b(out_features);
    for (Eigen::Index i = 0; i < b.size(); ++i) b[i] = rng.uniform(-bound, bound);
    return b;
}

AttentionWeights default_weights(const AttentionConfig& c) {
    AttentionWeights w;
    const int E = c.E();
    // Each matrix has its own random stream, so they can be drawn in parallel with the
    // same result (a few ms at E = 512, paid on every seed change in the window).
    struct Job { Mat* out; const char* stream; int in_features; };
    const Job jobs[] = {{&w.w_q, "w_q", E}, {&w.w_k, "w_k", c.key_dim()}, {&w.w_v, "w_v", c.value_dim()}, {&w.w_o, "w_o", E}};
#pragma omp parallel for if (E >= 128)
    for (int i = 0; i < 4; ++i) *jobs[i].out = linear_weight(c.seed, jobs[i].stream, E, jobs[i].in_features);
    if (c.bias) {
        w.b_q = linear_bias(c.seed, "b_q", E, E);
        w.b_k = linear_bias(c.seed, "b_k", E, c.key_dim());
        w.b_v = linear_bias(c.seed, "b_v", E, c.value_dim());
        w.b_o = linear_bias(c.seed, "b_o", E, E);
    }
    return w;
}

static Tensor uniform_tensor(uint64_t seed, const char* stream, std::vector<int64_t> shape,
                             std::vector<std::string> names) {
    Tensor t = Tensor::zeros(std::move(shape), std::move(names));
    Rng rng = Rng::for_stream(seed, stream);
    float* out = t.mutable_data();
    for (int64_t i = 0; i < t.numel(); ++i) out[i] = rng.uniform(-1.0f, 1.0f);
    return t;
}

AttentionInputs default_inputs(const AttentionConfig& c) {
    AttentionInputs in;
    in.query = uniform_tensor(c.seed, "query", {c.batch, c.L(), c.E()}, {"B", "L", "E"});
    if (c.is_cross()) {
        in.key = uniform_tensor(c.seed, "key", {c.batch, c.S(), c.key_dim()}, {"B", "S", "kdim"});
        in.value = uniform_tensor(c.seed, "value", {c.batch, c.S(), c.value_dim()}, {"B", "S", "vdim"});
    }
    return in;
}

Tensor token_embeddings(const std::vector<std::string>& tokens, int hidden_dim, uint64_t seed) {
    const auto L = static_cast<int64_t>(tokens.size());
    Tensor t = Tensor::zeros({1, L, hidden_dim}, {"B", "L", "E"});
    float* out = t.mutable_data();
    for (int64_t i = 0; i < L; ++i) {
        // Seeded by the token's text, so "cat" has the same vector wherever it appears.
        Rng rng = Rng::for_stream(seed, "token:" + tokens[static_cast<size_t>(i)]);
        for (int e = 0; e < hidden_dim; ++e) out[i * hidden_dim + e] = rng.uniform(-1.0f, 1.0f);
    }
    return t;
}

static std::string dims(const Mat& m) { return shape_text({m.rows(), m.cols()}); }

static Status check_matrix(const char* name, const Mat& m, int rows, int cols) {
    if (m.rows() == rows && m.cols() == cols) return ok_status();
    return Status::failure(std::string(name) + " has shape " + dims(m) + " but the configuration needs (" +
                           std::to_string(rows) + ", " + std::to_string(cols) + ")");
}

static Status check_input(const char* name, const Tensor& t, int64_t batch, int64_t length, int64_t width,
                          const char* length_name, const char* width_name) {
    if (t.empty()) return Status::failure(std::string(name) + " input is missing");
    if (t.rank() != 3 || t.dim(0) != batch || t.dim(1) != length || t.dim(2) != width)
        return Status::failure(std::string(name) + " input has shape " + t.shape_string() + " but the configuration needs (B=" +
                               std::to_string(batch) + ", " + length_name + "=" + std::to_string(length) + ", " +
                               width_name + "=" + std::to_string(width) + ")");
    if (!t.all_finite()) return Status::failure(std::string(name) + " input contains NaN or Inf values");
    return ok_status();
}

Status check_shapes(const AttentionConfig& c, const AttentionWeights& w, const AttentionInputs& in) {
    const int E = c.E();
    for (const Status& s : {check_matrix("w_q", w.w_q, E, E), check_matrix("w_k", w.w_k, E, c.key_dim()),
                            check_matrix("w_v", w.w_v, E, c.value_dim()), check_matrix("w_o", w.w_o, E, E)})
        if (!s) return s;
    if (w.has_bias() != c.bias)
        return Status::failure(c.bias ? "the configuration asks for biases but the weights have none"
                                      : "the weights have biases but the configuration says no bias");
    if (w.has_bias())
        for (const Vec* b : {&w.b_q, &w.b_k, &w.b_v, &w.b_o})
            if (b->size() != E) return Status::failure("a bias has " + std::to_string(b->size()) + " entries, expected hidden_dim " + std::to_string(E));
    for (const Mat* m : {&w.w_q, &w.w_k, &w.w_v, &w.w_o})
        if (!all_finite(m->data(), m->size())) return Status::failure("the weights contain NaN or Inf values");
    for (const Vec* b : {&w.b_q, &w.b_k, &w.b_v, &w.b_o})
        if (!all_finite(b->data(), b->size())) return Status::failure("the biases contain NaN or Inf values");
    if (Status s = check_input("query", in.query, c.batch, c.L(), E, "L", "E"); !s) return s;
    if (c.is_cross()) {
        if (Status s = check_input("key", in.key, c.batch, c.S(), c.key_dim(), "S", "kdim"); !s) return s;
        if (Status s = check_input("value", in.value, c.batch, c.S(), c.value_dim(), "S", "vdim"); !s) return s;
    }
    return ok_status();
}

}  // namespace attn
