// The model overview (View > Overview, key O): instead of the canvas's picture, a grid of
// thumbnails of one weight step, one per layer and head, from display/overview.h. Under
// each its peakedness and the model card's claim; hovering shows it larger with its
// numbers, a click opens that layer and head on the current step, Ctrl+click selects
// heads whose mean joins the grid. Internal to app/gui/views.
#pragma once

#include "app/gui/views/canvas/canvas_painter.h"
#include "app/gui/views/canvas/view_canvas_paint.h"

namespace attn::gui {

// The overview over `area`. Updates ui.overview_hovered and ui.overview_selected from the
// mouse; a click on a thumbnail sets ui.enlarged_head, closes the overview and, on another
// layer of a trained model, asks for it in the returned requests (open_layer).
CanvasRequests draw_overview(const CanvasFrame& frame, CanvasUi& ui, const Rect& area);

}  // namespace attn::gui
