// The model card (assets/models/NAME.json): sizes, vocabulary, architecture flags and
// head claims of one example model, read into a ModelSpec.
#pragma once

#include <string>

#include "core/model/model.h"
#include "core/result.h"

namespace attn::io {

// Parses and checks a card; `what` names the file in messages. Architectures other
// than the one AttnViz implements (pre-LN, LayerNorm, learned positions, erf GELU)
// are refused with a message saying which field differs.
Result<ModelSpec> parse_model_card(const std::string& json_text, const std::string& what);

}  // namespace attn::io
