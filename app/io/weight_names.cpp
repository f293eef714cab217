#include "app/io/weight_names.h"

namespace attn::io {

namespace {

// The tensor whose name is `name` or ends in ".name"; nullptr when absent.
// Sets `ambiguous` when several prefixes carry it (e.g. several layers in one file).
const Tensor* find_tensor(const NamedTensors& tensors, const std::string& name, std::string* ambiguous) {
    const Tensor* found = nullptr;
    for (const auto& [key, tensor] : tensors) {
        const bool match = key == name || (key.size() > name.size() && key.compare(key.size() - name.size(), name.size(), name) == 0 &&
                                           key[key.size() - name.size() - 1] == '.');
        if (!match) continue;
        if (found) *ambiguous = name;
        found = &tensor;
    }
    return found;
}

Mat to_matrix(const Tensor& t) {
    Mat m(t.dim(0), t.dim(1));
    const std::vector<float> values = t.to_vector();
    std::copy(values.begin(), values.end(), m.data());
    return m;
}

Vec to_row(const Tensor& t) {
    Vec v(t.numel());
    const std::vector<float> values = t.to_vector();
    std::copy(values.begin(), values.end(), v.data());
    return v;
}

std::string shape_text(const Tensor& t) { return attn::shape_text(t.shape()); }

// The tensors of one attention module, found by PyTorch's or Hugging Face's names;
// nullptr for those the file lacks.
struct FoundTensors {
    const Tensor *wq = nullptr, *wk = nullptr, *wv = nullptr, *wo = nullptr;
    const Tensor *bq = nullptr, *bk = nullptr, *bv = nullptr, *bo = nullptr;
    const Tensor* in_proj = nullptr;  // nn.MultiheadAttention's stacked (3E, E) q/k/v projection
    const Tensor* in_bias = nullptr;  // ... and its (3E) bias
    const Tensor *bias_k = nullptr, *bias_v = nullptr;
};

// The tensors by name, and the naming they follow (out.naming).
Result<FoundTensors> find_projections(const NamedTensors& tensors, const std::string& what, LoadedWeights& out) {
    using R = Result<FoundTensors>;
    std::string ambiguous;
    const auto get = [&](const std::string& name) { return find_tensor(tensors, name, &ambiguous); };
    FoundTensors f;
    f.in_proj = get("in_proj_weight");
    const Tensor* q_sep = get("q_proj_weight");
    const Tensor* hf_q = get("q_proj.weight");
    f.bias_k = get("bias_k");
    f.bias_v = get("bias_v");
    if ((f.bias_k == nullptr) != (f.bias_v == nullptr)) return R::failure(Message("error.weights_file.one_bias_kv", {{"what", what}}));
    if (f.in_proj || q_sep) {
        out.naming = "pytorch";
        f.wo = get("out_proj.weight");
        f.bo = get("out_proj.bias");
        f.in_bias = get("in_proj_bias");
        if (q_sep) {
            f.wq = q_sep;
            f.wk = get("k_proj_weight");
            f.wv = get("v_proj_weight");
            if (!f.wk || !f.wv) return R::failure(Message("error.weights_file.pytorch_kv", {{"what", what}}));
        }
    } else if (hf_q) {
        out.naming = "huggingface";
        f.wq = hf_q;
        f.wk = get("k_proj.weight");
        f.wv = get("v_proj.weight");
        f.wo = get("o_proj.weight");
        f.bq = get("q_proj.bias");
        f.bk = get("k_proj.bias");
        f.bv = get("v_proj.bias");
        f.bo = get("o_proj.bias");
        if (!f.wk || !f.wv) return R::failure(Message("error.weights_file.huggingface_kv", {{"what", what}}));
    } else {
        std::string names;
        for (size_t i = 0; i < tensors.size() && i < 6; ++i) names += (i ? ", " : "") + tensors[i].first;
        if (names.empty()) return R::failure(Message("error.weights_file.no_tensors", {{"what", what}}));
        return R::failure(Message("error.weights_file.none_found", {{"what", what}, {"names", names}}));
    }
    if (!ambiguous.empty())
        return R::failure(Message("error.weights_file.ambiguous", {{"what", what}, {"suffix", ambiguous}}));
    for (const Tensor* t : {f.wq, f.wk, f.wv, f.wo, f.in_proj})
        if (t && t->numel() == 0) return R::failure(Message("error.weights_file.empty_projection", {{"what", what}, {"shape", shape_text(*t)}}));
    return f;
}

// W_q, W_k, W_v and W_o, and the sizes they give. E is the query projection's rows (or
// W_o's); d_in its columns; H_kv * d_h the key projection's rows.
Status read_projections(const FoundTensors& f, const std::string& what, LoadedWeights& out) {
    int64_t E = 0;
    if (f.in_proj) {
        if (f.in_proj->rank() != 2 || f.in_proj->dim(0) % 3 != 0 || f.in_proj->dim(0) != 3 * f.in_proj->dim(1))
            return Status::failure(Message("error.weights_file.in_proj_shape", {{"what", what}, {"shape", shape_text(*f.in_proj)}}));
        E = f.in_proj->dim(1);
        const Mat stacked = to_matrix(*f.in_proj);
        out.weights.w_q = stacked.topRows(E);
        out.weights.w_k = stacked.middleRows(E, E);
        out.weights.w_v = stacked.bottomRows(E);
    } else {
        const std::pair<const char*, const Tensor*> parts[] = {{"error.input.query", f.wq}, {"error.input.key", f.wk}, {"error.input.value", f.wv}};
        for (const auto& [role, t] : parts)
            if (t->rank() != 2)
                return Status::failure(Message("error.weights_file.projection_rank", {{"what", what}, {"role", Message(role)}, {"shape", shape_text(*t)}}));
        E = f.wq->dim(0);
        if (f.wk->dim(0) > E || E % f.wk->dim(0) != 0)
            return Status::failure(Message("error.weights_file.key_rows", {{"what", what}, {"shape", shape_text(*f.wk)}, {"embed", E}}));
        if (f.wv->dim(0) != f.wk->dim(0))
            return Status::failure(Message("error.weights_file.value_rows", {{"what", what}, {"shape", shape_text(*f.wv)}, {"rows", f.wk->dim(0)}}));
        out.weights.w_q = to_matrix(*f.wq);
        out.weights.w_k = to_matrix(*f.wk);
        out.weights.w_v = to_matrix(*f.wv);
    }
    if (f.wo) {
        if (f.wo->rank() != 2 || f.wo->dim(0) != E || f.wo->dim(1) != E)
            return Status::failure(Message("error.weights_file.out_shape", {{"what", what}, {"shape", shape_text(*f.wo)}, {"embed", E}}));
        out.weights.w_o = to_matrix(*f.wo);
    }
    out.out_proj = f.wo != nullptr;
    out.hidden_dim = static_cast<int>(E);
    out.input_dim = static_cast<int>(out.weights.w_q.cols());
    out.kv_width = static_cast<int>(out.weights.w_k.rows());
    out.kdim = static_cast<int>(out.weights.w_k.cols());
    out.vdim = static_cast<int>(out.weights.w_v.cols());
    return ok_status();
}

// Biases: a present q/k/v bias means all three (an absent one is zero); the output's is
// its own; bias_k and bias_v (nn.MultiheadAttention's add_bias_kv) come together.
Status read_biases(const FoundTensors& f, const std::string& what, LoadedWeights& out) {
    const int64_t E = out.hidden_dim, kv = out.kv_width;
    if (f.in_bias) {
        if (f.in_bias->numel() != 3 * E)
            return Status::failure(Message("error.weights_file.in_proj_bias", {{"what", what}, {"size", f.in_bias->numel()}, {"expected", 3 * E}}));
        const Vec all = to_row(*f.in_bias);
        out.qkv_bias = true;
        out.weights.b_q = all.segment(0, E);
        out.weights.b_k = all.segment(E, E);
        out.weights.b_v = all.segment(2 * E, E);
    }
    struct BiasPart { Vec* dst; const Tensor* t; int64_t size; bool qkv; };
    const BiasPart biases[] = {{&out.weights.b_q, f.bq, E, true}, {&out.weights.b_k, f.bk, kv, true},
                               {&out.weights.b_v, f.bv, kv, true}, {&out.weights.b_o, f.bo, E, false}};
    for (const BiasPart& b : biases) {
        if (!b.t) continue;
        if (b.t->numel() != b.size)
            return Status::failure(Message("error.weights_file.bias_size", {{"what", what}, {"size", b.t->numel()}, {"expected", b.size}}));
        *b.dst = to_row(*b.t);
        (b.qkv ? out.qkv_bias : out.out_bias) = true;
    }
    if (out.qkv_bias)
        for (const BiasPart& b : biases)
            if (b.qkv && b.dst->size() == 0) *b.dst = Vec::Zero(b.size);
    if (!f.wo && f.bo) return Status::failure(Message("error.weights_file.out_bias_alone", {{"what", what}}));
    // q/k/v biases without an output bias: a zero output bias, as files always read (numerically
    // the same); only q/k/v without bias (the from-scratch modules) is told apart.
    if (out.qkv_bias && f.wo && !f.bo) {
        out.weights.b_o = Vec::Zero(E);
        out.out_bias = true;
    }
    out.bias = out.qkv_bias || out.out_bias;
    if (f.bias_k) {
        if (f.bias_k->numel() != kv || f.bias_v->numel() != kv)
            return Status::failure(Message("error.weights_file.bias_kv_size",
                                           {{"what", what}, {"k_size", f.bias_k->numel()}, {"v_size", f.bias_v->numel()}, {"expected", kv}}));
        out.weights.bias_k = to_row(*f.bias_k);
        out.weights.bias_v = to_row(*f.bias_v);
        out.bias_kv = true;
    }
    return ok_status();
}

}  // namespace

Result<LoadedWeights> weights_from_tensors(const NamedTensors& tensors, const std::string& what) {
    using R = Result<LoadedWeights>;
    LoadedWeights out;
    const Result<FoundTensors> found = find_projections(tensors, what, out);
    if (!found) return R::failure(found.message());
    if (Status s = read_projections(found.value(), what, out); !s) return R::failure(s.message());
    if (Status s = read_biases(found.value(), what, out); !s) return R::failure(s.message());
    return out;
}

Result<LoadedWeights> weights_from_tensors_under(const NamedTensors& tensors, const std::string& prefix,
                                                 const std::string& what) {
    if (prefix.empty()) return weights_from_tensors(tensors, what);
    NamedTensors scoped;
    for (const auto& [name, tensor] : tensors)
        if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0)
            scoped.emplace_back(name.substr(prefix.size()), tensor);
    if (scoped.empty()) return Result<LoadedWeights>::failure(Message("error.weights_file.prefix", {{"what", what}, {"prefix", prefix}}));
    return weights_from_tensors(scoped, what + " (" + prefix + "*)");
}

NamedTensors weights_to_tensors(const AttentionWeights& w) {
    const auto tensor = [](const auto& m, std::vector<int64_t> shape) {
        std::vector<std::string> names = numbered_dim_names(shape.size());
        return Tensor::from_values(std::move(shape), std::move(names), std::vector<float>(m.data(), m.data() + m.size()));
    };
    const int64_t E = w.w_q.rows();
    const bool out_proj = w.w_o.size() > 0;
    const bool mha_layout = w.w_q.cols() == E && w.w_k.rows() == E && out_proj && w.has_bias() == (w.b_o.size() > 0);
    NamedTensors out;
    if (!mha_layout) {  // Hugging Face names carry any widths and each bias on its own
        out.emplace_back("q_proj.weight", tensor(w.w_q, {E, w.w_q.cols()}));
        out.emplace_back("k_proj.weight", tensor(w.w_k, {w.w_k.rows(), w.w_k.cols()}));
        out.emplace_back("v_proj.weight", tensor(w.w_v, {w.w_v.rows(), w.w_v.cols()}));
        if (w.has_bias()) {
            out.emplace_back("q_proj.bias", tensor(w.b_q, {E}));
            out.emplace_back("k_proj.bias", tensor(w.b_k, {w.b_k.size()}));
            out.emplace_back("v_proj.bias", tensor(w.b_v, {w.b_v.size()}));
        }
        if (out_proj) out.emplace_back("o_proj.weight", tensor(w.w_o, {E, E}));
        if (w.b_o.size() > 0) out.emplace_back("o_proj.bias", tensor(w.b_o, {E}));
    } else {
        if (w.w_k.cols() == E && w.w_v.cols() == E) {
            Mat in_proj(3 * E, E);
            in_proj << w.w_q, w.w_k, w.w_v;
            out.emplace_back("in_proj_weight", tensor(in_proj, {3 * E, E}));
        } else {
            out.emplace_back("q_proj_weight", tensor(w.w_q, {E, E}));
            out.emplace_back("k_proj_weight", tensor(w.w_k, {E, w.w_k.cols()}));
            out.emplace_back("v_proj_weight", tensor(w.w_v, {E, w.w_v.cols()}));
        }
        if (w.has_bias()) {
            Vec in_bias(3 * E);
            in_bias << w.b_q, w.b_k, w.b_v;
            out.emplace_back("in_proj_bias", tensor(in_bias, {3 * E}));
        }
        out.emplace_back("out_proj.weight", tensor(w.w_o, {E, E}));
        if (w.has_bias()) out.emplace_back("out_proj.bias", tensor(w.b_o, {E}));
    }
    if (w.bias_k.size() > 0) {
        out.emplace_back("bias_k", tensor(w.bias_k, {1, 1, w.bias_k.size()}));
        out.emplace_back("bias_v", tensor(w.bias_v, {1, 1, w.bias_v.size()}));
    }
    return out;
}

}  // namespace attn::io
