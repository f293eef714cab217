// The token strip's next-token chart (a trained model's generation, the controls' Generate):
// for the decode step on screen, the distribution its last row gives the next token, as
// bars of the likeliest tokens: the model's own probability beside the one after
// temperature, top-k and top-p (what the token is drawn from), the tokens those filters
// removed greyed, the token drawn outlined (display/next_token_bars.h).
#pragma once

#include "app/gui/state/results.h"

namespace attn::gui {

// Height of the chart in pixels; 0 when `results` holds no trained model's generation.
float next_token_chart_height(const Results& results);
// Draws the chart for results.decode_step into the current window (the token strip's).
void draw_next_token_chart(const Results& results, bool light_theme);

}  // namespace attn::gui
