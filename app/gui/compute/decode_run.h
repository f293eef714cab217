// DecodeRun: the decode steps of a configuration with --decode-from P, as the window's token
// strip shows them. The worker makes it (the whole causal pass, the prefill of rows 0..P-1
// into a KV cache, and the decode steps up to the one asked for); a click on a later token
// computes only the steps not yet made, one row each against the kept cache, never the
// prefill again. Decode step k (1 .. L-P) is the row at position P + k - 1.
//
// A trained next-token model's generation (the controls' Generate) is a DecodeRun too: the
// core's GenerationRun (core/model/generate.h) has decoded every layer token by token and
// chosen each new token; a step's trace is the shown layer's (trace_generation_step), made
// when it is first shown.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/gui/compute/compute_worker.h"
#include "app/io/problem.h"
#include "core/kv_cache.h"
#include "core/model/generate.h"
#include "core/result.h"
#include "core/trace.h"

namespace attn::gui {

struct DecodeRun {
    std::shared_ptr<const io::Problem> problem;       // config.decode_from = P > 0; a model: its layer on the prompt
    std::shared_ptr<const GenerationRun> generation;  // a trained model's generation; null: random weights
    std::shared_ptr<const Trace> whole;               // the whole causal pass (rows 0..L-1 at once)
    KvCache cache;                                    // (B, H_kv, P + made steps, d_h) after the last made step (random weights)
    std::vector<std::shared_ptr<const Trace>> traces; // [0] the prefill, [k] decode step k; made so far

    int prefill() const { return generation ? generation->prompt_length : problem->config.decode_from; }  // P
    int length() const { return generation ? generation->seq_len : problem->config.L(); }                 // L
    int step_count() const { return length() - prefill(); }                                              // L - P decode steps
    int made() const { return static_cast<int>(traces.size()) - 1; }           // decode steps computed
    // Layers with a KV cache: every layer of a trained model's generation, or the one attention.
    int layers() const { return generation ? static_cast<int>(generation->caches.size()) : 1; }
    // The step shown for a click on the token at `position` (0 .. L-1): the prefill for a
    // prompt token, else position - P + 1.
    int step_of_position(int position) const { return position < prefill() ? 0 : position - prefill() + 1; }
};

// The whole pass and the prefill of `problem` (random weights, decode_from > 0), then the
// decode steps up to `step` (clamped to 0 .. L-P).
Result<std::shared_ptr<DecodeRun>> start_decode_run(std::shared_ptr<const io::Problem> problem, int step);
// A trained model's generation: `new_tokens` tokens after the prompt of `problem` (a model's
// layer, problem.model set), drawn with `settings` (core/model/generate.h); the traces of the
// shown layer up to `step`, and the whole pass over the prompt and the generated tokens.
Result<std::shared_ptr<DecodeRun>> start_generation_run(std::shared_ptr<const io::Problem> problem, int new_tokens,
                                                        const SamplingSettings& settings, int step);
// The labels of positions 0 .. L-1 (batch item `b`): the sentence's tokens, and for a
// generation the generated ones after the prompt.
std::vector<std::string> decode_tokens(const DecodeRun& run, int b);
// The choice made from step `step`'s last row of logits (the token at position P + step),
// or null: random weights, or the last step (its distribution chooses nothing).
const NextTokenChoice* choice_after_step(const DecodeRun& run, int step);
// Makes the decode steps up to `step` (clamped) that are not made yet, each one row
// against the cache. Returns the step now available (the clamped one) or the failure.
Result<int> decode_up_to(DecodeRun& run, int step);
// Step `step`'s query tokens (the prefill's P, or the one row's) and key tokens (the
// first S_t), for batch item `b`.
std::vector<std::string> decode_query_tokens(const DecodeRun& run, int step, int b);
std::vector<std::string> decode_key_tokens(const DecodeRun& run, int step, int b);
// What the window draws for decode step `step` (made already): its trace, a display model
// (only `focus` and what it reads when given, as the worker builds one; the worker
// completes it later, ComputeWorker::complete_later), its tokens and its row beside the
// whole pass's (decode_rows.h), with `run` kept in the result.
ComputeResult decode_step_result(std::shared_ptr<DecodeRun> run, int step, int batch_item, int max_extent,
                                 ColourScale colour_scale, std::optional<StepId> focus = std::nullopt);

}  // namespace attn::gui
