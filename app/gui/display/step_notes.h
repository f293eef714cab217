// Step notes: a few lines a trained model's steps add under the canvas, built from the
// trace once per trace (never per frame). Pure functions, no GL, no ImGui.
//   tokens              which words became <unk>
//   token_embedding     a repeated word gets the identical row
//   position_embedding, embedding_sum
//                       ... and the position rows are what make the two differ
//   out, residual, next_token_probs, predicted_tokens
//                       what the model predicts: the top 5 next words (language model) or
//                       the output sequence (algorithmic models)
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "core/trace.h"

namespace attn::gui {

// The k largest entries of `probs` (n of them) as (index, value), largest first; ties
// keep the lower index first.
std::vector<std::pair<int, float>> top_k(const float* probs, int n, int k);

// The notes of step `step_index` of `trace` for batch item `batch_item`; empty for steps
// (and traces without a model) that have none.
std::vector<std::string> step_notes(const Trace& trace, int step_index, int batch_item);

}  // namespace attn::gui
