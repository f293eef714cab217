// The trace of one layer of a trained model: the steps a learner walks through.
//
//   tokens -> token_embedding, position_embedding -> embedding_sum
//   [layer_input, when the layer shown is not the first]
//   -> norm (LN1) -> the layer's attention steps, `input` = the normed tensor -> out
//   -> residual (layer input + out)
//   -> next_token_probs (language model) or predicted_tokens (algorithmic models),
//      computed through the remaining layers for real.
#pragma once

#include "core/config.h"
#include "core/model/model.h"
#include "core/model/model_forward.h"
#include "core/model/tokenizer.h"
#include "core/result.h"
#include "core/trace.h"

namespace attn {

// Runs the whole model on `tokens` and returns the trace of layer `layer`
// (0 <= layer < spec.layers, else a message). `variant` picks how that layer's
// attention is written (all variants compute the same numbers).
Result<Trace> trace_model_layer(const Model& model, const TokenizedText& tokens, int layer,
                                Variant variant = Variant::Split);

// The same from a run already made on tokens.ids (run_model), so a caller that needed
// the run anyway does not run the model twice. The trace shares the run's tensors.
Result<Trace> trace_model_layer(const Model& model, const TokenizedText& tokens, int layer, const ModelRun& run);

}  // namespace attn
