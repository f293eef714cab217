// What the token strip's next-token chart draws for one choice of a generated token
// (core/model/sampling.h): the likeliest tokens, each with the model's probability and the
// probability it had in the draw, after temperature, top-k and top-p. No ImGui: the chart
// (views/panels/view_next_token.h) only places these bars.
#pragma once

#include <string>
#include <vector>

#include "core/model/sampling.h"

namespace attn::gui {

struct NextTokenBar {
    int id = 0;
    std::string label;      // the token as the vocabulary writes it
    float model = 0;        // probs[id]: softmax(logits), before anything
    float drawn_from = 0;   // filtered[id]: after temperature, top-k and top-p (0 when removed)
    bool kept = false;      // survived top-k and top-p
    bool drawn = false;     // the token chosen
};

struct NextTokenBars {
    std::vector<NextTokenBar> bars;  // likeliest first (equal: lower id first), the drawn one always among them
    float largest = 0;               // the largest probability of any bar, before or after: the chart's top
    int kept = 0;                    // how many tokens of the whole vocabulary were kept
    int vocabulary = 0;              // V
};

// The `count` likeliest tokens of `choice` by the model's probability (temperature keeps
// their order), the drawn token in place of the last one when it is not among them.
// vocabulary (V) labels the ids.
NextTokenBars next_token_bars(const NextTokenChoice& choice, const std::vector<std::string>& vocabulary, int count);

}  // namespace attn::gui
