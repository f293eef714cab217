// Follow on the canvas: the followed cell's lineage (display/follow.h) outlined on the step
// on screen, the right-click menu that follows a cell, and the strip under the canvas that
// lists the followed number's value at each step.
#pragma once

#include "app/gui/state/results.h"
#include "app/gui/views/canvas/view_canvas_anim.h"

namespace attn::gui {

// Outlines the followed cell's lineage cells of step `step` in its `visible` panels, drawn at
// `places` (the result, or a source in the column beside it).
void outline_lineage(const Painter& p, const CanvasUi& ui, int step, const std::vector<int>& visible,
                     const std::vector<PanelPlace>& places);
// Outlines the lineage cells of the step on screen in the result panels and, on a
// projection, in its X: the followed number strongly, its sources and what it feeds thinly.
void draw_follow_cells(const Painter& p, const CanvasUi& ui, const ResultDrawn& drawn);

// The canvas window's right-click menu on a cell (opened by draw_canvas): Follow or Stop
// following. Call in the canvas's window after draw_canvas.
void draw_follow_menu(CanvasUi& ui);

// The height of the strip under a canvas `width` wide: its text's, up to five lines; 0 when
// nothing is followed.
float follow_strip_height(const Results& results, const CanvasUi& ui, float width, bool interactive);
// "Followed: attn_scores 3.76 -> attn_scaled 0.94 -> ..." over `area`, with Unfollow
// (`interactive`: not in pictures).
void draw_follow_strip(const Results& results, CanvasUi& ui, const Rect& area, bool interactive);

}  // namespace attn::gui
