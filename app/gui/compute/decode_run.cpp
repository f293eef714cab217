#include "app/gui/compute/decode_run.h"

#include <algorithm>

#include "app/io/model_problem.h"
#include "core/model/model_trace.h"

namespace attn::gui {
namespace {

// Decode step `step`'s rows: {0, P} for the prefill, {P + step - 1, 1} after it.
QueryBlock block_of(const DecodeRun& run, int step) {
    return step == 0 ? QueryBlock{0, run.prefill()} : QueryBlock{run.prefill() + step - 1, 1};
}

// Step `step` (the next one not made): a generation's shown layer, as the core decoded it;
// with random weights one block against the kept cache, which it extends.
Result<Trace> make_step(DecodeRun& run, int step) {
    const io::Problem& p = *run.problem;
    if (run.generation) return trace_generation_step(*p.model, *run.generation, step, p.model_layer);
    return run_attention_block(p.config, p.weights, p.inputs, run.cache, block_of(run, step));
}

// The whole pass of a generation's shown layer over the prompt and the generated tokens.
Result<Trace> whole_generation_pass(const io::Problem& p, const GenerationRun& g) {
    Result<ModelRun> all = run_model(*p.model, g.ids);
    if (!all) return Result<Trace>::failure(all.message());
    return trace_model_layer(*p.model, generation_tokens(p.model->spec, g, g.seq_len), p.model_layer, all.value());
}

}  // namespace

Result<std::shared_ptr<DecodeRun>> start_decode_run(std::shared_ptr<const io::Problem> problem, int step) {
    auto run = std::make_shared<DecodeRun>();
    run->problem = std::move(problem);
    const io::Problem& p = *run->problem;
    // The whole pass reads no decode_from: every row at once, as the equality panel compares.
    Result<Trace> whole = io::compute_trace(p);
    if (!whole) return Result<std::shared_ptr<DecodeRun>>::failure(whole.message());
    run->whole = std::make_shared<const Trace>(std::move(whole).value());
    Result<Trace> prefill = make_step(*run, 0);
    if (!prefill) return Result<std::shared_ptr<DecodeRun>>::failure(prefill.message());
    run->traces.push_back(std::make_shared<const Trace>(std::move(prefill).value()));
    if (Result<int> made = decode_up_to(*run, step); !made) return Result<std::shared_ptr<DecodeRun>>::failure(made.message());
    return run;
}

Result<std::shared_ptr<DecodeRun>> start_generation_run(std::shared_ptr<const io::Problem> problem, int new_tokens,
                                                        const SamplingSettings& settings, int step) {
    using R = Result<std::shared_ptr<DecodeRun>>;
    auto run = std::make_shared<DecodeRun>();
    run->problem = std::move(problem);
    const io::Problem& p = *run->problem;
    Result<GenerationRun> generated = generate(*p.model, p.model_tokens.ids, new_tokens, settings);
    if (!generated) return R::failure(generated.message());
    run->generation = std::make_shared<const GenerationRun>(std::move(generated).value());
    Result<Trace> whole = whole_generation_pass(p, *run->generation);
    if (!whole) return R::failure(whole.message());
    run->whole = std::make_shared<const Trace>(std::move(whole).value());
    Result<Trace> prefill = make_step(*run, 0);
    if (!prefill) return R::failure(prefill.message());
    run->traces.push_back(std::make_shared<const Trace>(std::move(prefill).value()));
    if (Result<int> made = decode_up_to(*run, step); !made) return R::failure(made.message());
    return run;
}

std::vector<std::string> decode_tokens(const DecodeRun& run, int b) {
    if (!run.generation) return run.problem->query_tokens_of(b);
    return generation_tokens(run.problem->model->spec, *run.generation, run.length()).tokens;
}

const NextTokenChoice* choice_after_step(const DecodeRun& run, int step) {
    if (!run.generation || step < 0 || step >= static_cast<int>(run.generation->choices.size())) return nullptr;
    return &run.generation->choices[static_cast<size_t>(step)];
}

Result<int> decode_up_to(DecodeRun& run, int step) {
    step = std::clamp(step, 0, run.step_count());
    while (run.made() < step) {
        // The cache holds rows 0 .. P + made - 1: the next step appends one row and attends to all.
        Result<Trace> next = make_step(run, run.made() + 1);
        if (!next) return Result<int>::failure(next.message());
        run.traces.push_back(std::make_shared<const Trace>(std::move(next).value()));
    }
    return step;
}

std::vector<std::string> decode_query_tokens(const DecodeRun& run, int step, int b) {
    const std::vector<std::string> all = decode_tokens(run, b);
    const QueryBlock block = block_of(run, std::clamp(step, 0, run.step_count()));
    const auto first = all.begin() + std::min<size_t>(all.size(), static_cast<size_t>(block.first));
    return std::vector<std::string>(first, all.begin() + std::min<size_t>(all.size(), static_cast<size_t>(block.first + block.count)));
}

std::vector<std::string> decode_key_tokens(const DecodeRun& run, int step, int b) {
    const std::vector<std::string> all = run.generation ? decode_tokens(run, b) : run.problem->key_tokens_of(b);
    const QueryBlock block = block_of(run, std::clamp(step, 0, run.step_count()));
    return std::vector<std::string>(all.begin(), all.begin() + std::min<size_t>(all.size(), static_cast<size_t>(block.first + block.count)));
}

ComputeResult decode_step_result(std::shared_ptr<DecodeRun> run, int step, int batch_item, int max_extent,
                                 ColourScale colour_scale, std::optional<StepId> focus) {
    ComputeResult result;
    step = std::clamp(step, 0, run->made());
    result.trace = run->traces[static_cast<size_t>(step)];
    result.query_tokens = decode_query_tokens(*run, step, batch_item);
    result.key_tokens = decode_key_tokens(*run, step, batch_item);
    colour_scale.difference_from_float32 = false;  // a decode step is shown as computed
    const int focus_index = focus ? result.trace->index_of(*focus) : kAllSteps;  // -1 (absent): all
    result.model = std::make_shared<const DisplayModel>(
        build_display_model(*result.trace, result.query_tokens, result.key_tokens, batch_item, max_extent, focus_index, colour_scale));
    result.decode_rows = compare_decode_row(*result.trace, *run->whole, batch_item);
    result.decode = std::move(run);
    result.decode_step = step;
    return result;
}

}  // namespace attn::gui
