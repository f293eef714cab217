// The Compare menu's ready contrasts: each is one row (what A and B are, as command-line
// options on top of the setup on screen, and the step to look at); its name and the
// sentence on what to look for are catalogue keys compare.contrast.<id>.name / .look.
#pragma once

#include <string>
#include <vector>

#include "app/gui/state/compare.h"
#include "app/io/problem.h"
#include "core/result.h"
#include "core/step_id.h"

namespace attn::gui {

struct Contrast {
    const char* id;         // "scale"
    const char* a_options;  // A: on top of the setup on screen
    const char* b_options;  // B: on top of A ("{more_heads}": A's heads, or the fewest above 1 that divide E)
    StepId step;            // where the contrast shows
};
const std::vector<Contrast>& contrasts();
const Contrast* find_contrast(const std::string& id);

struct ContrastSetup {
    io::Problem a, b;
    Message note;  // how the contrast was set up, when not on the session as it is (empty otherwise)
};
// A's and B's problems for `contrast` from the session on screen, or the command line's
// one-line reason when they cannot be built (e.g. "--variant fused" with cross-attention).
// When a trained model on screen fixes what the contrast changes (tiny-lm's scaling), A
// and B use the model's sizes and tokens with random weights instead, and `note` says so.
Result<ContrastSetup> contrast_setup(const Session& session, const Contrast& contrast);
// Sets one side of a contrast up from its problem: the sentence box keeps the text typed in
// `base` (the session the contrast was chosen from) wherever the side reads its tokens, and
// the model picker's note says what the side runs (the trained model or random weights).
void apply_contrast_side(Session& side, const io::Problem& problem, const Session& base);

// B for `attnviz snapshot --compare` and `attnviz trace --compare`: the session's setup
// with `b_options` (command-line options) on top, or the one-line reason it cannot be built.
Result<io::Problem> problem_for_b(const Session& a, const std::string& b_options);

// The "scale" contrast's numbers: `base` (random weights, its L and H) at d_h = 4, 16,
// 64 and 256, with and without the 1/sqrt(d_h) scaling.
std::vector<SaturationRow> saturation_by_head_dim(const AttentionConfig& base);

}  // namespace attn::gui
