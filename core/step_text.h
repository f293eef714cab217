// The words of each step: a title, a formula and a short explanation for learners.
// Kept apart from the arithmetic so attention.cpp reads like the math.
#pragma once

#include <string>

#include "core/config.h"

namespace attn {

struct StepText {
    std::string title;
    std::string formula;
    std::string explanation;
};

// Text for the step called `name` ("q_heads", "attn_scores", ...) under `config`;
// the explanation quotes the configuration's real sizes.
StepText describe_step(const std::string& name, const AttentionConfig& config);

}  // namespace attn
