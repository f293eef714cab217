#include "app/io/model_problem.h"

#include "app/io/model_loader.h"
#include "core/attention.h"
#include "core/model/model_forward.h"
#include "core/model/model_trace.h"

namespace attn::io {

Result<Problem> build_model_problem(const std::string& model_name_or_path, int layer, const std::string& sentence) {
    Result<std::shared_ptr<const Model>> model = load_model(model_name_or_path);
    if (!model) return Result<Problem>::failure(model.message());
    return build_model_problem(model.value(), layer, sentence);
}

Result<Problem> build_model_problem(std::shared_ptr<const Model> model, int layer, const std::string& sentence) {
    using R = Result<Problem>;
    const ModelSpec& spec = model->spec;
    if (layer < 0 || layer >= spec.layers)
        return R::failure(spec.layers == 1 ? Message("error.model.layer_option_one", {{"layer", layer}, {"model", spec.name}})
                                           : Message("error.model.layer_option", {{"layer", layer}, {"model", spec.name}, {"last", spec.layers - 1}}));
    Result<TokenizedText> tokens = tokenize(spec, sentence);
    if (!tokens) return R::failure(tokens.message());
    // The layer's attention input is LN1 of what the earlier layers produced.
    Result<ModelRun> run = run_model(*model, tokens->ids);
    if (!run) return R::failure(run.message());
    const LayerRun& shown = run->layers[static_cast<size_t>(layer)];

    Problem p;
    p.config = layer_attention_config(spec, static_cast<int>(tokens->ids.size()));
    // The layer's weights stay inside the model; the problem shares the model's ownership.
    p.weights = std::shared_ptr<const AttentionWeights>(model, &model->weights.layers[static_cast<size_t>(layer)].attn);
    const Mat& x = shown.ln1;  // (L, D)
    p.inputs.query = Tensor::from_values({1, x.rows(), x.cols()}, {"B", "L", "E"}, std::vector<float>(x.data(), x.data() + x.size()));
    p.query_tokens = tokens->tokens;
    p.key_tokens = tokens->tokens;
    p.model = std::move(model);
    p.model_layer = layer;
    p.model_tokens = std::move(tokens.value());
    p.model_run = std::make_shared<const ModelRun>(std::move(run.value()));
    return p;
}

Result<Trace> compute_trace(const Problem& problem) {
    if (problem.model) {
        if (problem.model_run && problem.config.variant == Variant::Split)
            return trace_model_layer(*problem.model, problem.model_tokens, problem.model_layer, *problem.model_run);
        return trace_model_layer(*problem.model, problem.model_tokens, problem.model_layer, problem.config.variant);
    }
    return run_attention(problem.config, problem.weights, problem.inputs);
}

}  // namespace attn::io
