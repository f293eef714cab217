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

// Compare mode on `contrast` (the Compare menu, `attnviz snapshot --contrast`): from the
// session compare mode started on (state.compare.base; started here when it is off), the
// session on screen becomes A and compare mode's B the contrast's B, with the contrast's
// name, note and (for "scale") saturation table recorded. Returns A's and B's problems for
// the caller to compute, or the reason they cannot be built (kept in contrast_error too).
Result<ContrastSetup> set_up_contrast(AppState& state, const Contrast& contrast);

// B for `attnviz snapshot --compare` and `attnviz trace --compare`: the session's setup
// with `b_options` (command-line options) on top, or the one-line reason it cannot be built.
Result<io::Problem> problem_for_b(const Session& a, const std::string& b_options);

// The mean over (batch, head, query) rows of each row's largest attention weight (1: every
// row gives all its weight to one key; 1/S: spread evenly). 0 without attn_weights.
float mean_row_peak(const Trace& trace);

// The "scale" contrast's numbers: `base` (random weights, its L and H) at d_h = 4, 16,
// 64 and 256, with and without the 1/sqrt(d_h) scaling.
std::vector<SaturationRow> saturation_by_head_dim(const AttentionConfig& base);

}  // namespace attn::gui
