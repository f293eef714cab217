#include "core/model/generate.h"

#include <utility>

#include "core/model/model_trace.h"

namespace attn {

namespace {

// The prefill of ids[0 .. P), the first block of every generation.
Result<GenerationRun> prefill(const Model& model, std::vector<int> ids, int prompt_length, int seq_len, Variant variant) {
    GenerationRun run;
    run.ids = std::move(ids);
    run.prompt_length = prompt_length;
    run.seq_len = seq_len;
    Result<ModelRun> block = run_model_block(model, run.ids, QueryBlock{0, prompt_length}, seq_len, run.caches, variant);
    if (!block) return Result<GenerationRun>::failure(block.message());
    run.blocks.push_back(std::move(block).value());
    return run;
}

// One decode step: position `position` (its token already in run.ids) through every layer.
Status decode_position(const Model& model, GenerationRun& run, int position, Variant variant) {
    Result<ModelRun> block = run_model_block(model, run.ids, QueryBlock{position, 1}, run.seq_len, run.caches, variant);
    if (!block) return Status::failure(block.message());
    run.blocks.push_back(std::move(block).value());
    return ok_status();
}

// The last row of the newest block's logits: what the next token is chosen from.  (V)
Vec last_logits(const GenerationRun& run) {
    const Mat& logits = run.blocks.back().logits;
    return logits.row(logits.rows() - 1);
}

}  // namespace

Status check_generation_length(const ModelSpec& spec, int prompt_length, int new_tokens) {
    if (new_tokens < 1 || prompt_length + new_tokens > spec.max_len) {
        const int fit = std::max(0, spec.max_len - prompt_length);
        return Status::failure(Message("error.generate.too_many", {{"tokens", new_tokens},
                                                                   {"prompt", prompt_length},
                                                                   {"model", spec.name},
                                                                   {"max", spec.max_len},
                                                                   {"fit", fit}}));
    }
    return ok_status();
}

Result<GenerationRun> generate(const Model& model, const std::vector<int>& prompt, int new_tokens,
                               const SamplingSettings& settings, Variant variant) {
    using R = Result<GenerationRun>;
    if (prompt.empty()) return R::failure(Message("error.model.no_tokens", {{"model", model.spec.name}}));
    if (Status s = check_sampling(settings); !s) return R::failure(s.message());
    if (Status s = check_generation_length(model.spec, static_cast<int>(prompt.size()), new_tokens); !s)
        return R::failure(s.message());
    const int P = static_cast<int>(prompt.size());
    Result<GenerationRun> started = prefill(model, prompt, P, P + new_tokens, variant);
    if (!started) return started;
    GenerationRun& run = started.value();
    run.generated = true;
    run.settings = settings;
    Rng rng = sample_rng(settings.seed);
    for (int position = P; position < run.seq_len; ++position) {
        run.choices.push_back(choose_next_token(last_logits(run), settings, rng));
        run.ids.push_back(run.choices.back().token);
        if (Status s = decode_position(model, run, position, variant); !s) return R::failure(s.message());
    }
    return started;
}

Result<GenerationRun> decode_model(const Model& model, const std::vector<int>& ids, int decode_from, Variant variant) {
    using R = Result<GenerationRun>;
    const int L = static_cast<int>(ids.size());
    if (L > model.spec.max_len)
        return R::failure(Message("error.model.too_many_tokens", {{"tokens", L}, {"model", model.spec.name}, {"max", model.spec.max_len}}));
    if (decode_from < 1 || decode_from > L - 1)
        return R::failure(Message("error.decode.range", {{"from", decode_from}, {"last", L - 1}}));
    Result<GenerationRun> started = prefill(model, ids, decode_from, L, variant);
    if (!started) return started;
    for (int position = decode_from; position < L; ++position)
        if (Status s = decode_position(model, started.value(), position, variant); !s) return R::failure(s.message());
    return started;
}

TokenizedText generation_tokens(const ModelSpec& spec, const GenerationRun& run, int count) {
    TokenizedText tokens;
    for (int i = 0; i < count && i < static_cast<int>(run.ids.size()); ++i) {
        const int id = run.ids[static_cast<size_t>(i)];
        tokens.ids.push_back(id);
        tokens.tokens.push_back(spec.vocabulary[static_cast<size_t>(id)]);
    }
    return tokens;
}

Result<Trace> trace_generation_step(const Model& model, const GenerationRun& run, int step, int layer) {
    if (step < 0 || step > run.steps())
        return Result<Trace>::failure(Message("error.decode.step_range", {{"step", step}, {"last", run.steps()}}));
    const ModelRun& block = run.blocks[static_cast<size_t>(step)];
    return trace_model_layer(model, generation_tokens(model.spec, run, block.block.first + block.block.count), layer, block);
}

}  // namespace attn
