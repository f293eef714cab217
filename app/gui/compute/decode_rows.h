// A decode step's row of scores and weights beside the same row of the whole causal pass:
// the two are computed by different products (one query row against the cache, or every
// row at once), so they agree only up to float rounding, and this says by how much.
#pragma once

#include <vector>

#include "core/step_id.h"
#include "core/trace.h"

namespace attn::gui {

// One step's row (one batch item), every head: decode[h] and whole[h] are (S_t) each.
struct DecodeRowStep {
    StepId id = StepId::AttnScores;
    std::vector<std::vector<float>> decode, whole;  // (H, S_t)
    float largest_difference = 0;   // max |decode - whole| over heads and keys (finite cells)
    float largest_relative = 0;     // the same over the whole row's largest |value| (the README's tolerance)
};

struct DecodeRowCompare {
    int position = -1;                 // the row's absolute position; -1: nothing compared
    std::vector<DecodeRowStep> steps;  // attn_scores, attn_scaled, attn_masked, attn_weights (those both traces hold)
    const DecodeRowStep* find(StepId id) const {
        for (const DecodeRowStep& s : steps)
            if (s.id == id) return &s;
        return nullptr;
    }
};

// The decode step's row (trace.decode_position()) of the score and weight steps beside
// the whole pass's, for batch item `b`. Empty (position -1) when `decode` is no decode step.
DecodeRowCompare compare_decode_row(const Trace& decode, const Trace& whole, int b);

}  // namespace attn::gui
