// The controls' Generate section, for a trained next-token model (tiny-lm, tiny-lm-zh, sort,
// tiny-llama, induction): how many tokens to generate after the sentence and how each is
// drawn (temperature, top-k, top-p, seed: core/model/sampling.h), and the Generate button.
// The generation appears in the token strip above the canvas, each new token a decode step
// (views/panels/view_token_strip.h). While a generation is on screen, changing a setting
// generates again.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/session.h"

namespace attn::gui {

// Draws the section when the session's model predicts the next token; edits `session` (the
// controls' copy) and sets out.config_changed when a new generation is needed. Returns true
// when the session was edited.
bool draw_generate_section(Session& session, Actions& out, bool light_theme);

}  // namespace attn::gui
