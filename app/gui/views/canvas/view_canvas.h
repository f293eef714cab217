// The canvas view: the current step's tensor as heatmaps with labelled axes, its
// sources, the legend and the storage strip, animated by Playback's progress.
#pragma once

#include <string>

#include "app/gui/display/layout.h"
#include "app/gui/views/canvas/canvas_painter.h"
#include "app/gui/views/canvas/view_canvas_paint.h"

namespace attn::gui {

// Draws the canvas into the current ImGui window over `area` (screen pixels) and
// updates ui.hovered / ui.pinned / ui.enlarged_head from the mouse when interactive.
// Returns what the user asked of the session (a mask paint click, clearing the paint).
CanvasRequests draw_canvas(const CanvasFrame& frame, CanvasUi& ui, const Rect& area);

// The side of the main picture's cells if the canvas were drawn over `area` now (what
// presentation mode compares to place the explanation under or beside the picture).
float canvas_result_cell(const CanvasFrame& frame, const CanvasUi& ui, const Rect& area);

// Presentation with the explanation beside the picture (frame.key_beside): the caption and
// the colour legend at the top of that column, over `area`; returns the height they took.
float draw_canvas_key(const CanvasFrame& frame, const CanvasUi& ui, const Rect& area);

// The canvas's shape line ("attn_weights   (B=2, ...)   batch item 1"), without the notice;
// the frame measures it to decide whether the head selector fits beside it.
std::string canvas_caption(const CanvasFrame& frame, const CanvasUi& ui);

}  // namespace attn::gui
