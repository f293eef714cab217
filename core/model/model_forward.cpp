#include "core/model/model_forward.h"

#include <cmath>

#include "core/attention.h"
#include "core/model/layer_norm.h"
#include "core/softmax.h"
#include "core/step_id.h"

namespace attn {

namespace {

// (N, D) rows placed at rows [first, first + N) of a (B=1, L, E) tensor (zeros elsewhere:
// a block's forward reads its own rows only).
Tensor batch_of_one(const Mat& x, int64_t L, int64_t first) {
    Tensor t = Tensor::uninitialized({1, L, x.cols()}, {DimRole::Batch, DimRole::QueryPos, DimRole::Embedding});
    MatMap all(t.mutable_data(), L, x.cols());
    all.setZero();
    all.middleRows(first, x.rows()) = x;
    return t;
}

Mat rows_of(const Tensor& t) {  // (1, L, D) -> (L, D)
    const Tensor dense = t.contiguous();
    return ConstMatMap(dense.data(), dense.dim(1), dense.dim(2));
}

// Rows of the block: the token embeddings, the learned positions (zeros for RoPE) and their sum.
Result<bool> embed(const Model& model, const std::vector<int>& ids, QueryBlock block, ModelRun& run) {
    const ModelSpec& spec = model.spec;
    const ModelWeights& w = model.weights;
    run.token_embedding.resize(block.count, spec.hidden_dim);
    for (int t = 0; t < block.count; ++t) {
        const int id = ids[static_cast<size_t>(block.first + t)];
        if (id < 0 || id >= w.token_embedding.rows())
            return Result<bool>::failure(
                Message("error.model.token_id", {{"id", id}, {"model", spec.name}, {"vocabulary", w.token_embedding.rows()}}));
        run.token_embedding.row(t) = w.token_embedding.row(id);
    }
    run.position_embedding = spec.rope ? Mat::Zero(block.count, spec.hidden_dim)
                                       : Mat(w.position_embedding.middleRows(block.first, block.count));
    run.embedding_sum = run.token_embedding + run.position_embedding;
    return true;
}

// After a layer's attention: the residual, and the MLP when the model has one.
void finish_layer(LayerRun& lr, const LayerWeights& layer, const ModelSpec& spec) {
    lr.resid_attn = lr.input + rows_of(lr.attention.find(StepId::Out)->tensor);
    lr.output = lr.resid_attn;
    if (spec.mlp) {
        lr.ln2 = model_norm(lr.resid_attn, layer.ln2, spec);
        lr.mlp = mlp_forward(lr.ln2, layer);
        lr.output += lr.mlp.out;
    }
}

// After the last layer: the final norm, the logits, their softmax and argmax.
void predict(const Model& model, const Mat& x, ModelRun& run) {
    run.final_norm = model_norm(x, model.weights.final_norm, model.spec);
    run.logits.noalias() = run.final_norm.lazyProduct(model.weights.lm_head.transpose());  // (L, V); in order, as in mlp.cpp
    run.probs = softmax_rows_of(run.logits);
    run.predicted_ids.resize(static_cast<size_t>(x.rows()));
    for (Eigen::Index t = 0; t < x.rows(); ++t) {
        Eigen::Index best = 0;
        run.logits.row(t).maxCoeff(&best);
        run.predicted_ids[static_cast<size_t>(t)] = static_cast<int>(best);
    }
}

// Every layer on the block's rows: the whole pass (caches null) or against the caches.
Result<ModelRun> run_layers(const Model& model, const std::vector<int>& ids, QueryBlock block, int seq_len,
                            std::vector<KvCache>* caches, Variant variant) {
    using R = Result<ModelRun>;
    const ModelSpec& spec = model.spec;
    ModelRun run;
    if (caches) run.block = block;
    if (Result<bool> embedded = embed(model, ids, block, run); !embedded) return R::failure(embedded.message());
    const AttentionConfig config = layer_attention_config(spec, seq_len, variant);
    Mat x = run.embedding_sum;  // (count, D) the residual stream
    for (size_t i = 0; i < model.weights.layers.size(); ++i) {
        const LayerWeights& layer = model.weights.layers[i];
        LayerRun lr;
        lr.input = x;
        lr.ln1 = model_norm(x, layer.ln1, spec);
        AttentionInputs inputs;
        inputs.query = batch_of_one(lr.ln1, seq_len, block.first);
        // The trace shares a copy of the weights, as run_attention's does: it may outlive the model.
        Result<Trace> attention = caches ? run_attention_block(config, std::make_shared<const AttentionWeights>(layer.attn),
                                                               inputs, (*caches)[i], block)
                                         : run_attention(config, layer.attn, inputs);
        if (!attention) return R::failure(Message("error.model.attention", {{"model", spec.name}, {"error", attention.message()}}));
        lr.attention = std::move(attention.value());
        finish_layer(lr, layer, spec);
        x = lr.output;
        run.layers.push_back(std::move(lr));
    }
    predict(model, x, run);
    return run;
}

}  // namespace

AttentionConfig layer_attention_config(const ModelSpec& spec, int seq_len, Variant variant) {
    AttentionConfig c;
    c.batch = 1;
    c.seq_len = seq_len;
    c.hidden_dim = spec.hidden_dim;
    c.num_heads = spec.heads;
    c.num_kv_heads = spec.kv_heads;
    c.bias = spec.bias;
    c.rope = spec.rope;
    c.rope_base = spec.rope_base;
    c.rope_style = RopeStyle::Half;
    c.mask = spec.causal ? MaskKind::Causal : MaskKind::None;
    c.variant = variant;
    c.recipe = spec.code_recipe;
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
    const int L = static_cast<int>(ids.size());
    if (L < 1) return R::failure(Message("error.model.no_tokens", {{"model", spec.name}}));
    if (L > spec.max_len)
        return R::failure(Message("error.model.too_many_tokens", {{"tokens", L}, {"model", spec.name}, {"max", spec.max_len}}));
    return run_layers(model, ids, QueryBlock{0, L}, L, nullptr, variant);
}

Result<ModelRun> run_model_block(const Model& model, const std::vector<int>& ids, QueryBlock block, int seq_len,
                                 std::vector<KvCache>& caches, Variant variant) {
    using R = Result<ModelRun>;
    const ModelSpec& spec = model.spec;
    if (seq_len > spec.max_len)
        return R::failure(Message("error.model.too_many_tokens", {{"tokens", seq_len}, {"model", spec.name}, {"max", spec.max_len}}));
    if (block.first < 0 || block.count < 1 || block.first + block.count > seq_len ||
        static_cast<size_t>(block.first + block.count) > ids.size())
        return R::failure(Message::internal("a block of rows outside the tokens given"));
    caches.resize(model.weights.layers.size());
    return run_layers(model, ids, block, seq_len, &caches, variant);
}

}  // namespace attn
