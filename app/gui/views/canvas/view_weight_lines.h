// The lines view of a weight step (View > Weights as): query tokens on the left, key
// tokens on the right, a line per unmasked pair in its head's colour, drawn from the
// geometry of display/weight_lines.h. Hovering a token keeps only its lines and prints
// their weights; clicking pins it. Internal to app/gui/views.
#pragma once

#include "app/gui/views/canvas/canvas_painter.h"
#include "app/gui/views/canvas/view_canvas_paint.h"

namespace attn::gui {

// True when the canvas draws `frame`'s step as lines, alone or beside its heatmap.
bool shows_weight_lines(const CanvasFrame& frame);

// The canvas of such a step over `area`: the lines alone, or with WeightsAs::Both the
// heatmap canvas on the left half and the lines on the right. Updates ui.lines_hovered
// and ui.lines_pinned from the mouse when interactive.
CanvasRequests draw_weights_as(const CanvasFrame& frame, CanvasUi& ui, const Rect& area);

}  // namespace attn::gui
