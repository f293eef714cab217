// Generation, one token at a time. This is the API the window's token strip (strip30's
// branch) uses, and the command line's `--generate N` / `--decode-from P` with `--model`.
//
// A generation is a prefill (the prompt's rows 0..P-1 through every layer, filling each
// layer's KV cache) and then one decode step per later position: that token's one row
// through every layer, each layer attending to its own cache (core/model/model_forward.h,
// run_model_block). After the prefill and after each decode step the last row's logits
// give the next token (core/model/sampling.h): generated, or, teacher-forced (decode_model),
// the next token of a given sentence.
//
// Indices: blocks[0] is the prefill; blocks[i], i >= 1, decodes position P + i - 1. The
// i-th generated token (i from 0) is choices[i], drawn from blocks[i]'s last row of logits,
// and stands at position P + i. The last block decodes the last token, so every token has
// a decode step (and its logits, which choose nothing).
#pragma once

#include <string>
#include <vector>

#include "core/kv_cache.h"
#include "core/model/model.h"
#include "core/model/model_forward.h"
#include "core/model/sampling.h"
#include "core/model/tokenizer.h"
#include "core/result.h"
#include "core/trace.h"

namespace attn {

struct GenerationRun {
    std::vector<int> ids;         // (L) the prompt, then each generated (or given) token
    int prompt_length = 0;        // P: rows of the prefill
    int seq_len = 0;              // L = P + N: the L of every step's attention configuration
    bool generated = false;       // tokens after the prompt were drawn (false: given, decode_model)
    SamplingSettings settings;    // how they were drawn (generate only)
    std::vector<ModelRun> blocks;          // N + 1: the prefill, then one decode step per position P .. L-1
    std::vector<NextTokenChoice> choices;  // N when generated: choices[i] chose ids[P + i]
    std::vector<KvCache> caches;           // per layer, (1, H_kv, L, d_h) after the last step
    int steps() const { return static_cast<int>(blocks.size()) - 1; }  // decode steps
};

// Checks that `prompt_length` + `new_tokens` tokens fit the model's max_len (new_tokens >= 1):
// error.generate.too_many says how many fit after this prompt.
Status check_generation_length(const ModelSpec& spec, int prompt_length, int new_tokens);

// Generates `new_tokens` tokens after `prompt` (ids, P >= 1), each drawn with `settings`
// from sample_rng(settings.seed), every layer decoded one token at a time against its cache.
// Fails with one message on bad settings, a prompt + N that does not fit, or a bad id.
Result<GenerationRun> generate(const Model& model, const std::vector<int>& prompt, int new_tokens,
                               const SamplingSettings& settings, Variant variant = Variant::Split);

// The same loop with the tokens given: rows 0..decode_from-1 are the prefill, rows
// decode_from .. L-1 one decode step each (`--decode-from P` with `--model`).
// 1 <= decode_from < ids.size() <= max_len, else a message.
Result<GenerationRun> decode_model(const Model& model, const std::vector<int>& ids, int decode_from,
                                   Variant variant = Variant::Split);

// The tokens of positions 0 .. count-1 of a run as the tokenizer would give them.
TokenizedText generation_tokens(const ModelSpec& spec, const GenerationRun& run, int count);

// The trace of layer `layer` at step `step` (0: the prefill; i: the decode of position
// P + i - 1), with the model's steps around the attention (core/model/model_trace.h): its
// query rows are the block's, its keys every cached position.
Result<Trace> trace_generation_step(const Model& model, const GenerationRun& run, int step, int layer);

}  // namespace attn
