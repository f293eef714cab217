// The explanation panel: the current step's title, formula, shapes before and after,
// whether it copied anything, and its explanation text.
#pragma once

#include "app/gui/kit/fonts_theme.h"
#include "core/trace.h"

namespace attn::gui {

// Step `index` of `trace` (nullptr: a placeholder). `large` selects presentation-size type.
void draw_explanation(const Trace* trace, int index, int batch_item, bool light_theme, const Fonts& fonts, bool large);

}  // namespace attn::gui
