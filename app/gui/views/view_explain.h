// The explanation panel: the current step's title, formula, shapes before and after,
// whether it copied anything, and its explanation text.
#pragma once

#include "app/gui/app_state.h"
#include "app/gui/fonts_theme.h"

namespace attn::gui {

// `large` selects presentation-size type.
void draw_explanation(const AppState& state, const Fonts& fonts, bool large);

}  // namespace attn::gui
