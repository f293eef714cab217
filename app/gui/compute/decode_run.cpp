#include "app/gui/compute/decode_run.h"

#include <algorithm>

#include "app/io/model_problem.h"

namespace attn::gui {
namespace {

// Decode step `step`'s rows: {0, P} for the prefill, {P + step - 1, 1} after it.
QueryBlock block_of(const DecodeRun& run, int step) {
    return step == 0 ? QueryBlock{0, run.prefill()} : QueryBlock{run.prefill() + step - 1, 1};
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
    Result<Trace> prefill = run_attention_block(p.config, p.weights, p.inputs, run->cache, block_of(*run, 0));
    if (!prefill) return Result<std::shared_ptr<DecodeRun>>::failure(prefill.message());
    run->traces.push_back(std::make_shared<const Trace>(std::move(prefill).value()));
    if (Result<int> made = decode_up_to(*run, step); !made) return Result<std::shared_ptr<DecodeRun>>::failure(made.message());
    return run;
}

Result<int> decode_up_to(DecodeRun& run, int step) {
    step = std::clamp(step, 0, run.step_count());
    const io::Problem& p = *run.problem;
    while (run.made() < step) {
        // The cache holds rows 0 .. P + made - 1: the next step appends one row and attends to all.
        Result<Trace> next = run_attention_block(p.config, p.weights, p.inputs, run.cache, block_of(run, run.made() + 1));
        if (!next) return Result<int>::failure(next.message());
        run.traces.push_back(std::make_shared<const Trace>(std::move(next).value()));
    }
    return step;
}

std::vector<std::string> decode_query_tokens(const DecodeRun& run, int step, int b) {
    const std::vector<std::string>& all = run.problem->query_tokens_of(b);
    const QueryBlock block = block_of(run, std::clamp(step, 0, run.step_count()));
    const auto first = all.begin() + std::min<size_t>(all.size(), static_cast<size_t>(block.first));
    return std::vector<std::string>(first, all.begin() + std::min<size_t>(all.size(), static_cast<size_t>(block.first + block.count)));
}

std::vector<std::string> decode_key_tokens(const DecodeRun& run, int step, int b) {
    const std::vector<std::string>& all = run.problem->key_tokens_of(b);
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
