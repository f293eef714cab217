// Painting a mask on the canvas: on the score and weight steps (attn_scores, attn_scaled,
// attn_masked, attn_weights, attn_weights_avg) a "paint mask" toggle sits above the
// heatmaps; while it is on, a click on a cell masks or unmasks that (query, key) pair
// for every head and batch item, Shift+click a whole query row, Ctrl+click (or
// Alt+click) a whole key column. The canvas only reports the click: the canvas panel
// turns it into a session edit (session.painted_mask) and a recompute, so the softmax
// re-normalises through the normal request path. Internal to app/gui/views.
#pragma once

#include <optional>

#include "app/gui/edits/painted_mask.h"
#include "app/gui/views/canvas/view_canvas_anim.h"

namespace attn::gui {

// One paint click: which cell of the (L, S) map and how far it reaches.
struct MaskPaint {
    int row = 0, col = 0;
    PaintReach reach = PaintReach::Cell;
};

// What the canvas asks of the session this frame (nothing, usually).
struct CanvasRequests {
    std::optional<MaskPaint> paint;
    bool clear_paint = false;
    std::optional<int> open_layer;  // the overview's click: show this layer of the trained model
};

// True when the frame offers painting on its step: interactive, a session mask to paint
// (not a trained model) and a paintable step (step_info(id).paintable(): an (L, S) score
// or weight map).
bool paint_offered(const CanvasFrame& frame);
// What a click with these modifier keys paints: Shift = row, Ctrl or Alt = column, else the cell.
PaintReach paint_reach(bool shift, bool ctrl, bool alt);

// Height of the paint bar above the heatmaps (0 when painting is not offered).
float paint_bar_height(const Painter& p);
// The toggle, the one-line help and "clear painted mask" at the top of `area`. Writes
// ui.paint_mode; returns true when "clear" was pressed.
bool draw_paint_bar(const Painter& p, CanvasUi& ui, const Rect& area);
// A small marker in every painted cell of the visible panels (only where cells are big
// enough to carry one), so painted cells read apart from the presets' cells.
void draw_painted_cells(const Painter& p, const ResultDrawn& drawn);

}  // namespace attn::gui
