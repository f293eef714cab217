#include "core/model/model_trace.h"

#include <utility>

#include "core/attention.h"
#include "core/model/model_forward.h"

namespace attn {

namespace {

// (L, D) -> (B=1, L, E).
Tensor batch_of_one(const Mat& m) {
    Tensor t = Tensor::uninitialized({1, m.rows(), m.cols()}, {DimRole::Batch, DimRole::QueryPos, DimRole::Embedding});
    MatMap(t.mutable_data(), m.rows(), m.cols()) = m;
    return t;
}

// (L, V) -> (B=1, L, V): the last axis is the vocabulary.
Tensor vocabulary_rows(const Mat& m) {
    Tensor t = Tensor::uninitialized({1, m.rows(), m.cols()}, {DimRole::Batch, DimRole::QueryPos, DimRole::Vocabulary});
    MatMap(t.mutable_data(), m.rows(), m.cols()) = m;
    return t;
}

// (L) integers -> (B=1, L) floats.
Tensor ids_tensor(const std::vector<int>& ids) {
    Tensor t = Tensor::uninitialized({1, static_cast<int64_t>(ids.size())}, {DimRole::Batch, DimRole::QueryPos});
    for (size_t i = 0; i < ids.size(); ++i) t.mutable_data()[i] = static_cast<float>(ids[i]);
    return t;
}

Step make_step(StepId id, StepKind kind, Tensor tensor, std::vector<StepId> sources) {
    Step step;
    step.id = id;
    step.kind = kind;
    step.tensor = std::move(tensor);
    step.sources = std::move(sources);
    return step;
}

}  // namespace

Result<Trace> trace_model_layer(const Model& model, const TokenizedText& tokens, int layer, Variant variant) {
    Result<ModelRun> run = run_model(model, tokens.ids, variant);
    if (!run) return Result<Trace>::failure(run.message());
    return trace_model_layer(model, tokens, layer, run.value());
}

Result<Trace> trace_model_layer(const Model& model, const TokenizedText& tokens, int layer, const ModelRun& run) {
    using R = Result<Trace>;
    const ModelSpec& spec = model.spec;
    if (layer < 0 || layer >= spec.layers || static_cast<size_t>(layer) >= run.layers.size())
        return R::failure(Message("error.model.layer_range", {{"layer", layer}, {"model", spec.name}, {"last", spec.layers - 1}}));
    // A block's run (run_model_block) holds its rows only; `tokens` are those of positions
    // 0 .. block end, the keys it attended to.
    const QueryBlock rows = run.block.count > 0 ? run.block : QueryBlock{0, static_cast<int>(tokens.ids.size())};
    if (run.token_embedding.rows() != rows.count || static_cast<size_t>(rows.first + rows.count) != tokens.ids.size())
        return R::failure(Message::internal("the model run was made on other tokens"));
    const std::vector<int> row_ids(tokens.ids.begin() + rows.first, tokens.ids.end());
    const LayerRun& shown = run.layers[static_cast<size_t>(layer)];
    const AttentionConfig& config = shown.attention.config;

    Trace trace;
    trace.config = config;
    trace.block = shown.attention.block;  // a decode step's rows against the cache (decode_position)
    trace.parameters = shown.attention.parameters;
    trace.fully_masked_rows = shown.attention.fully_masked_rows;
    TraceModelInfo& info = trace.model;
    info.name = spec.name;
    info.kind = to_string(spec.kind);
    info.layer = layer;
    info.layers = spec.layers;
    info.tokens = tokens.tokens;
    info.vocabulary = spec.vocabulary;
    info.token_unit = spec.token_unit;
    info.norm = spec.norm;
    info.script_forms = spec.script_forms;
    info.unknown_words = tokens.unknown_words;
    for (int id : run.predicted_ids) info.predicted_tokens.push_back(spec.vocabulary[static_cast<size_t>(id)]);
    // What the cell explanations read (core/explain_cell_model.cpp): small next to the steps.
    info.position_rows = model.weights.position_embedding.rows();
    info.norm_weight = model.weights.layers[static_cast<size_t>(layer)].ln1.weight;
    info.norm_bias = model.weights.layers[static_cast<size_t>(layer)].ln1.bias;
    if (info.norm_bias.size() == 0) info.norm_bias = Vec::Zero(info.norm_weight.size());  // a model without biases
    info.norm_eps = spec.norm_eps;
    info.logits = run.logits;
    if (layer > 0) {
        const LayerRun& previous = run.layers[static_cast<size_t>(layer - 1)];
        info.previous_attention_residual = previous.resid_attn;
        if (spec.mlp) info.previous_mlp_out = previous.mlp.out;
    }

    // Before attention: where the layer's input comes from.
    const auto push = [&](StepId id, StepKind kind, Tensor tensor, std::vector<StepId> sources) {
        trace.steps.push_back(make_step(id, kind, std::move(tensor), std::move(sources)));

    };
    push(StepId::Tokens, StepKind::Input, ids_tensor(row_ids), {});
    push(StepId::TokenEmbedding, StepKind::Lookup, batch_of_one(run.token_embedding), {StepId::Tokens});
    push(StepId::PositionEmbedding, StepKind::Lookup, batch_of_one(run.position_embedding), {StepId::Tokens});
    push(StepId::EmbeddingSum, StepKind::Add, batch_of_one(run.embedding_sum),
         {StepId::TokenEmbedding, StepId::PositionEmbedding});
    StepId layer_input = StepId::EmbeddingSum;
    if (layer > 0) {
        push(StepId::LayerInput, StepKind::Input, batch_of_one(shown.input), {});
        layer_input = StepId::LayerInput;
    }
    // The attention's `input` step is the normed tensor itself: the norm step shares its storage.
    const Step* attention_input = shown.attention.find(StepId::Input);
    if (!attention_input) return R::failure(Message::internal("the attention trace has no input step"));
    push(StepId::Norm, StepKind::Norm, attention_input->tensor, {layer_input});

    // The layer's own attention trace, unchanged (a Step copy shares its tensor's storage).
    trace.steps.insert(trace.steps.end(), shown.attention.steps.begin(), shown.attention.steps.end());

    // After attention: the residual, and what the whole model predicts.
    push(StepId::Residual, StepKind::Add, batch_of_one(shown.resid_attn), {layer_input, StepId::Out});
    if (spec.kind == ModelKind::Language)
        push(StepId::NextTokenProbs, StepKind::Prediction, vocabulary_rows(run.probs), {StepId::Residual});
    else
        push(StepId::PredictedTokens, StepKind::Prediction, ids_tensor(run.predicted_ids), {StepId::Residual});
    return trace;
}

}  // namespace attn
