#include "core/model/model_forward.h"

#include <cmath>

#include "core/attention.h"
#include "core/model/layer_norm.h"
#include "core/softmax.h"
#include "core/step_id.h"

namespace attn {

namespace {

Tensor batch_of_one(const Mat& x) {  // (L, D) -> (B=1, L, E)
    Tensor t = Tensor::uninitialized({1, x.rows(), x.cols()}, {DimRole::Batch, DimRole::QueryPos, DimRole::Embedding});
    MatMap(t.mutable_data(), x.rows(), x.cols()) = x;
    return t;
}

Mat rows_of(const Tensor& t) {  // (1, L, D) -> (L, D)
    const Tensor dense = t.contiguous();
    return ConstMatMap(dense.data(), dense.dim(1), dense.dim(2));
}

}  // namespace

AttentionConfig layer_attention_config(const ModelSpec& spec, int seq_len, Variant variant) {
    AttentionConfig c;
    c.batch = 1;
    c.seq_len = seq_len;
    c.hidden_dim = spec.hidden_dim;
    c.num_heads = spec.heads;
    c.bias = true;
    c.mask = spec.causal ? MaskKind::Causal : MaskKind::None;
    c.variant = variant;
    return c;
}

Mat softmax_rows_of(const Eigen::Ref<const Mat>& logits) {
    const Eigen::Index V = logits.cols();
    Mat probs(logits.rows(), V);
    for (Eigen::Index i = 0; i < logits.rows(); ++i) {
        const Eigen::RowVectorXd row = logits.row(i).cast<double>();
        Eigen::RowVectorXd e(V);  // aligned storage: explain_prediction computes its copy the same way
        softmax_exponentials(row.data(), V, softmax_row_max(row.data(), V), e.data());
        probs.row(i) = (e / e.sum()).cast<float>();  // Eigen's own summation order, not lane_sum's
    }
    return probs;
}

Result<ModelRun> run_model(const Model& model, const std::vector<int>& ids, Variant variant) {
    using R = Result<ModelRun>;
    const ModelSpec& spec = model.spec;
    const ModelWeights& w = model.weights;
    const int L = static_cast<int>(ids.size());
    if (L < 1) return R::failure(Message("error.model.no_tokens", {{"model", spec.name}}));
    if (L > spec.max_len)
        return R::failure(Message("error.model.too_many_tokens", {{"tokens", L}, {"model", spec.name}, {"max", spec.max_len}}));
    const int D = spec.hidden_dim;

    ModelRun run;
    run.token_embedding.resize(L, D);
    for (int t = 0; t < L; ++t) {
        if (ids[static_cast<size_t>(t)] < 0 || ids[static_cast<size_t>(t)] >= w.token_embedding.rows())
            return R::failure(Message("error.model.token_id",
                                      {{"id", ids[static_cast<size_t>(t)]}, {"model", spec.name}, {"vocabulary", w.token_embedding.rows()}}));
        run.token_embedding.row(t) = w.token_embedding.row(ids[static_cast<size_t>(t)]);
    }
    run.position_embedding = w.position_embedding.topRows(L);
    run.embedding_sum = run.token_embedding + run.position_embedding;

    const AttentionConfig config = layer_attention_config(spec, L, variant);
    Mat x = run.embedding_sum;  // (L, D) the residual stream
    for (const LayerWeights& layer : w.layers) {
        LayerRun lr;
        lr.input = x;
        lr.ln1 = layer_norm(x, layer.ln1, spec.norm_eps);
        AttentionInputs inputs;
        inputs.query = batch_of_one(lr.ln1);
        Result<Trace> attention = run_attention(config, layer.attn, inputs);
        if (!attention) return R::failure(Message("error.model.attention", {{"model", spec.name}, {"error", attention.message()}}));
        lr.attention = std::move(attention.value());
        const Step* out = lr.attention.find(StepId::Out);
        lr.resid_attn = x + rows_of(out->tensor);
        lr.output = lr.resid_attn;
        if (spec.mlp) {
            lr.ln2 = layer_norm(lr.resid_attn, layer.ln2, spec.norm_eps);
            lr.mlp = mlp_forward(lr.ln2, layer);
            lr.output += lr.mlp.out;
        }
        x = lr.output;
        run.layers.push_back(std::move(lr));
    }
    run.final_norm = layer_norm(x, w.final_norm, spec.norm_eps);
    run.logits.noalias() = run.final_norm.lazyProduct(w.lm_head.transpose());  // (L, V); in order, as in mlp.cpp
    run.probs = softmax_rows_of(run.logits);
    run.predicted_ids.resize(static_cast<size_t>(L));
    for (int t = 0; t < L; ++t) {
        Eigen::Index best = 0;
        run.logits.row(t).maxCoeff(&best);
        run.predicted_ids[static_cast<size_t>(t)] = static_cast<int>(best);
    }
    return run;
}

}  // namespace attn
