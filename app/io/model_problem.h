// A Problem made from a trained example model: the model, a sentence in its
// vocabulary and the layer to show. The command line and the window both come here,
// and both compute the trace with compute_trace(), so a model problem and a random one
// go through the same door.
#pragma once

#include <string>

#include "app/io/problem.h"
#include "core/result.h"
#include "core/trace.h"

namespace attn::io {

// Loads `model_name_or_path` (io::load_model), tokenises `sentence` with its vocabulary
// (spec.example is a good default) and runs layers 0..layer-1 for real to get the input
// of `layer`. Errors (unknown model, layer out of range, empty or too long sentence)
// are one line.
Result<Problem> build_model_problem(const std::string& model_name_or_path, int layer, const std::string& sentence);

// The same for a model already loaded (the window keeps it between sentences).
Result<Problem> build_model_problem(std::shared_ptr<const Model> model, int layer, const std::string& sentence);

// The trace of `problem`: the chosen layer of the model with its embedding, norm,
// residual and prediction steps, or, without a model, the plain attention forward.
Result<Trace> compute_trace(const Problem& problem);

}  // namespace attn::io
