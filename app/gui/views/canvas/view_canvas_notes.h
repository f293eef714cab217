// Lines under the canvas about what the configuration does to the step on screen,
// worded when drawn (so a language switch re-words them) from the trace alone:
//   fully masked rows   on attn_masked and the weight steps: how many (head, query) rows
//                       of the shown item have no key left, and what the fill makes of
//                       them here and in PyTorch (zeros and NaN with -inf, uniform 1/S
//                       with a finite fill); read from the trace's weights, not re-derived
//   key/value groups    grouped-query attention: which query heads share a key/value
//                       head (the colours, head_groups.h)
// Internal to app/gui/views.
#pragma once

#include <string>
#include <vector>

#include "app/gui/views/canvas/canvas_painter.h"

namespace attn::gui {

// The lines for the frame's step (empty for most steps).
std::vector<std::string> config_notes(const CanvasFrame& frame);
// `lines` wrapped at word boundaries to `width` pixels.
std::vector<std::string> wrap_notes(const Painter& p, const std::vector<std::string>& lines, float width);
// Height of (wrapped) `lines` drawn one per line (0 when there are none).
float config_notes_height(const Painter& p, const std::vector<std::string>& lines);
// Draws them from the top of `area` in the notice colour.
void draw_config_notes(const Painter& p, const std::vector<std::string>& lines, const Rect& area);

}  // namespace attn::gui
