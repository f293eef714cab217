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
    const int kv = c.kv_width();
    struct Job { Mat* out; const char* stream; int out_features, in_features; };
    const Job jobs[] = {{&w.w_q, "w_q", E, c.d_in()}, {&w.w_k, "w_k", kv, c.key_dim()}, {&w.w_v, "w_v", kv, c.value_dim()},
                        {&w.w_o, "w_o", E, E}};
    const int count = c.no_out_proj ? 3 : 4;
#pragma omp parallel for if (E >= 128)
    for (int i = 0; i < count; ++i) *jobs[i].out = linear_weight(c.seed, jobs[i].stream, jobs[i].out_features, jobs[i].in_features);
    if (c.qkv_bias()) {
        w.b_q = linear_bias(c.seed, "b_q", E, c.d_in());
        w.b_k = linear_bias(c.seed, "b_k", kv, c.key_dim());
        w.b_v = linear_bias(c.seed, "b_v", kv, c.value_dim());
    }
    if (c.out_bias()) w.b_o = linear_bias(c.seed, "b_o", E, E);
    if (c.add_bias_kv) {
        w.bias_k = linear_bias(c.seed, "bias_k", kv, kv);
        w.bias_v = linear_bias(c.seed, "bias_v", kv, kv);
    }
    return w;
}

DefaultWeightsKey default_weights_key(const AttentionConfig& c) {
    DefaultWeightsKey key;
    key.seed = c.seed;
    key.out_features = c.E();
    key.kv_width = c.kv_width();
    key.d_in = c.d_in();
    key.key_dim = c.key_dim();
    key.value_dim = c.value_dim();
    key.out_proj = !c.no_out_proj;
    key.qkv_bias = c.qkv_bias();
    key.out_bias = c.out_bias();
    key.bias_kv = c.add_bias_kv;
    return key;
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
    in.query = uniform_tensor(c.seed, "query", {c.batch, c.L(), c.d_in()}, {"B", "L", c.d_in() == c.E() ? "E" : "d_in"});
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
    return Status::failure(Message("error.weights.matrix_shape", {{"name", name}, {"shape", dims(m)}, {"rows", rows}, {"cols", cols}}));
}

// `role_id` names the input in messages: error.input.query / .key / .value.
static Status check_input(const char* role_id, const Tensor& t, int64_t batch, int64_t length, int64_t width,
                          const char* length_name, const char* width_name) {
    const Message role(role_id);
    if (t.empty()) return Status::failure(Message("error.input.missing", {{"role", role}}));
    if (t.rank() != 3 || t.dim(0) != batch || t.dim(1) != length || t.dim(2) != width)
        return Status::failure(Message("error.input.shape", {{"role", role},
                                                             {"shape", t.shape_string()},
                                                             {"batch", batch},
                                                             {"length_name", length_name},
                                                             {"length", length},
                                                             {"width_name", width_name},
                                                             {"width", width}}));
    if (!t.all_finite()) return Status::failure(Message("error.input.not_finite", {{"role", role}}));
    return ok_status();
}

static Status check_vector(const char* name, const Vec& v, bool wanted, int size, const char* why_id) {
    if (!wanted) {
        if (v.size() == 0) return ok_status();
        return Status::failure(Message("error.weights.unwanted_bias", {{"name", name}, {"why", Message(why_id)}}));
    }
    if (v.size() == 0) return Status::failure(Message("error.weights.missing_bias", {{"name", name}}));
    if (v.size() != size) return Status::failure(Message("error.weights.bias_size", {{"name", name}, {"size", v.size()}, {"expected", size}}));
    if (!all_finite(v.data(), v.size())) return Status::failure(Message("error.weights.bias_not_finite"));
    return ok_status();
}

Status check_shapes(const AttentionConfig& c, const AttentionWeights& w, const AttentionInputs& in) {
    const int E = c.E(), kv = c.kv_width();
    for (const Status& s : {check_matrix("w_q", w.w_q, E, c.d_in()), check_matrix("w_k", w.w_k, kv, c.key_dim()),
                            check_matrix("w_v", w.w_v, kv, c.value_dim()),
                            c.no_out_proj ? ok_status() : check_matrix("w_o", w.w_o, E, E)})
        if (!s) return s;
    const bool qkv = c.qkv_bias(), out = c.out_bias();
    if (!c.bias && (w.has_bias() || w.b_o.size() > 0))
        return Status::failure(Message("error.weights.unwanted_biases"));
    for (const Status& s : {check_vector("b_q", w.b_q, qkv, E, "error.weights.why.no_qkv_bias"), check_vector("b_k", w.b_k, qkv, kv, "error.weights.why.no_qkv_bias"),
                            check_vector("b_v", w.b_v, qkv, kv, "error.weights.why.no_qkv_bias"),
                            check_vector("b_o", w.b_o, out, E, "error.weights.why.no_out_bias"),
                            check_vector("bias_k", w.bias_k, c.add_bias_kv, kv, "error.weights.why.no_add_bias_kv"),
                            check_vector("bias_v", w.bias_v, c.add_bias_kv, kv, "error.weights.why.no_add_bias_kv")})
        if (!s) return s;
    for (const Mat* m : {&w.w_q, &w.w_k, &w.w_v, &w.w_o})
        if (!all_finite(m->data(), m->size())) return Status::failure(Message("error.weights.not_finite"));
    if (Status s = check_input("error.input.query", in.query, c.batch, c.L(), c.d_in(), "L", c.d_in() == E ? "E" : "d_in"); !s) return s;
    if (c.is_cross()) {
        if (Status s = check_input("error.input.key", in.key, c.batch, c.S(), c.key_dim(), "S", "kdim"); !s) return s;
        if (Status s = check_input("error.input.value", in.value, c.batch, c.S(), c.value_dim(), "S", "vdim"); !s) return s;
    }
    return ok_status();
}

}  // namespace attn
