// Finding and loading the example models: by name from the copies embedded in the
// binary (`--model tiny-lm`), or by path to a card (`--model dir/NAME.json`, with
// NAME.safetensors beside it).
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/model/model.h"
#include "core/result.h"

namespace attn::io {

// The cards of the embedded models: the language model first, then by name.
const std::vector<ModelSpec>& list_models();
// Names of the embedded models, for messages ("tiny-lm, reverse, sort").
std::string model_names_text();

// Loads `name_or_path`: a path when it names an existing file or ends in ".json",
// an embedded model's name otherwise. Messages name what was tried and what exists.
Result<std::shared_ptr<const Model>> load_model(const std::string& name_or_path);

// Builds a model from a card's text and a safetensors file's bytes (what load_model does
// once it has found them); `what` names the source in messages.
Result<Model> model_from_bytes(const std::string& card_json, const std::string& safetensors_bytes, const std::string& what);

}  // namespace attn::io
