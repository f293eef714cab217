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

}  // namespace

Result<LoadedWeights> weights_from_tensors(const NamedTensors& tensors, const std::string& what) {
    using R = Result<LoadedWeights>;
    std::string ambiguous;
    const auto get = [&](const std::string& name) { return find_tensor(tensors, name, &ambiguous); };
    const Tensor* in_proj = get("in_proj_weight");
    const Tensor* q_sep = get("q_proj_weight");
    const Tensor* hf_q = get("q_proj.weight");

    LoadedWeights out;
    const Tensor *wq = nullptr, *wk = nullptr, *wv = nullptr, *wo = nullptr;
    const Tensor *bq = nullptr, *bk = nullptr, *bv = nullptr, *bo = nullptr;
    const Tensor* in_bias = nullptr;
    if (get("bias_k") || get("bias_v"))
        return R::failure(what + ": has bias_k/bias_v (nn.MultiheadAttention with add_bias_kv=True), which AttnViz does not model");
    if (in_proj || q_sep) {
        out.naming = "pytorch";
        wo = get("out_proj.weight");
        bo = get("out_proj.bias");
        in_bias = get("in_proj_bias");
        if (q_sep) {
            wq = q_sep;
            wk = get("k_proj_weight");
            wv = get("v_proj_weight");
            if (!wk || !wv) return R::failure(what + ": has q_proj_weight but not k_proj_weight and v_proj_weight");
        }
    } else if (hf_q) {
        out.naming = "huggingface";
        wq = hf_q;
        wk = get("k_proj.weight");
        wv = get("v_proj.weight");
        wo = get("o_proj.weight");
        bq = get("q_proj.bias");
        bk = get("k_proj.bias");
        bv = get("v_proj.bias");
        bo = get("o_proj.bias");
        if (!wk || !wv) return R::failure(what + ": has q_proj.weight but not k_proj.weight and v_proj.weight");
    } else {
        std::string names;
        for (size_t i = 0; i < tensors.size() && i < 6; ++i) names += (i ? ", " : "") + tensors[i].first;
        return R::failure(what + ": no attention weights found (expected in_proj_weight or q_proj.weight; the file has " +
                          (names.empty() ? std::string("no tensors") : names) + ")");
    }
    if (!ambiguous.empty())
        return R::failure(what + ": several tensors end in '" + ambiguous + "'; keep one layer's weights in the file");
    if (!wo) return R::failure(what + ": the output projection (" + (out.naming == "pytorch" ? "out_proj.weight" : "o_proj.weight") + ") is missing");

    for (const Tensor* t : {wq, wk, wv, wo, in_proj})
        if (t && t->numel() == 0) return R::failure(what + ": a projection has shape " + shape_text(*t) + " with no elements");
    // Every size follows from W_o (E, E) and the input projections' widths.
    if (wo->rank() != 2 || wo->dim(0) != wo->dim(1))
        return R::failure(what + ": the output projection has shape " + shape_text(*wo) + ", expected square (E, E)");
    const int64_t E = wo->dim(0);
    if (in_proj) {
        if (in_proj->rank() != 2 || in_proj->dim(0) != 3 * E || in_proj->dim(1) != E)
            return R::failure(what + ": in_proj_weight has shape " + shape_text(*in_proj) + ", expected (3E, E) = (" +
                              std::to_string(3 * E) + ", " + std::to_string(E) + ")");
        const Mat stacked = to_matrix(*in_proj);
        out.weights.w_q = stacked.topRows(E);
        out.weights.w_k = stacked.middleRows(E, E);
        out.weights.w_v = stacked.bottomRows(E);
    } else {
        const std::pair<const char*, const Tensor*> parts[] = {{"query", wq}, {"key", wk}, {"value", wv}};
        for (const auto& [role, t] : parts)
            if (t->rank() != 2 || t->dim(0) != E)
                return R::failure(what + ": the " + role + " projection has shape " + shape_text(*t) + ", expected (E = " +
                                  std::to_string(E) + ", input width)");
        if (wq->dim(1) != E)
            return R::failure(what + ": the query projection has shape " + shape_text(*wq) + ", expected (" +
                              std::to_string(E) + ", " + std::to_string(E) + ")");
        out.weights.w_q = to_matrix(*wq);
        out.weights.w_k = to_matrix(*wk);
        out.weights.w_v = to_matrix(*wv);
    }
    out.weights.w_o = to_matrix(*wo);
    out.hidden_dim = static_cast<int>(E);
    out.kdim = static_cast<int>(out.weights.w_k.cols());
    out.vdim = static_cast<int>(out.weights.w_v.cols());

    // Biases: any present means the layer has biases; an absent one is zero.
    if (in_bias) {
        if (in_bias->numel() != 3 * E)
            return R::failure(what + ": in_proj_bias has " + std::to_string(in_bias->numel()) + " entries, expected 3E = " + std::to_string(3 * E));
        const Vec all = to_row(*in_bias);
        out.bias = true;
        out.weights.b_q = all.segment(0, E);
        out.weights.b_k = all.segment(E, E);
        out.weights.b_v = all.segment(2 * E, E);
    }
    const std::pair<Vec*, const Tensor*> biases[] = {{&out.weights.b_q, bq}, {&out.weights.b_k, bk}, {&out.weights.b_v, bv}, {&out.weights.b_o, bo}};
    for (const auto& [dst, t] : biases) {
        if (!t) continue;
        if (t->numel() != E) return R::failure(what + ": a bias has " + std::to_string(t->numel()) + " entries, expected E = " + std::to_string(E));
        *dst = to_row(*t);
        out.bias = true;
    }
    if (out.bias)
        for (const auto& [dst, t] : biases)
            if (dst->size() == 0) *dst = Vec::Zero(E);
    return out;
}

Result<LoadedWeights> weights_from_tensors_under(const NamedTensors& tensors, const std::string& prefix,
                                                 const std::string& what) {
    if (prefix.empty()) return weights_from_tensors(tensors, what);
    NamedTensors scoped;
    for (const auto& [name, tensor] : tensors)
        if (name.size() > prefix.size() && name.compare(0, prefix.size(), prefix) == 0)
            scoped.emplace_back(name.substr(prefix.size()), tensor);
    if (scoped.empty()) return Result<LoadedWeights>::failure(what + ": no tensor names start with '" + prefix + "'");
    return weights_from_tensors(scoped, what + " (" + prefix + "*)");
}

NamedTensors weights_to_tensors(const AttentionWeights& w) {
    const auto tensor = [](const auto& m, std::vector<int64_t> shape) {
        std::vector<std::string> names = numbered_dim_names(shape.size());
        return Tensor::from_values(std::move(shape), std::move(names), std::vector<float>(m.data(), m.data() + m.size()));
    };
    const int64_t E = w.w_q.rows();
    NamedTensors out;
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
    return out;
}

}  // namespace attn::io
