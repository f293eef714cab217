// The "how peaked is this" readout of weight steps, drawn by the canvas: one summary
// line per head under the heatmaps and a narrow column of per-row numbers beside the
// chosen head. It prints StepDisplay::focus (weight_focus.h); it computes nothing.
// Internal to app/gui/views.
#pragma once

#include "app/gui/views/canvas/canvas_painter.h"

namespace attn::gui {

// Height the summary lines need under the heatmaps at width `w` (0 when `sd` has no focus).
float focus_summary_height(const Painter& p, const StepDisplay& sd, float w);
// Width of the per-row column (0 when `sd` has no focus).
float focus_column_width(const Painter& p, const StepDisplay& sd);

// The summary: a title line, then "head 2: mean max 0.81, entropy 0.32 (focused)" for
// every head, as many per line as fit in `area`.
void draw_focus_summary(const Painter& p, const StepDisplay& sd, const Rect& area);
// Height of the step's notes (StepDisplay::notes) wrapped at `width`; 0 when it has none.
float notes_height(const Painter& p, const StepDisplay& sd, float width);
// The notes, wrapped at the width of `area`, from its top, in the notice colour.
void draw_notes(const Painter& p, const StepDisplay& sd, const Rect& area);
// The column at x = `x`: per row of head `head`'s panel (placed at `place`), its max
// weight and normalised entropy; nothing when the rows are too thin to read.
void draw_focus_column(const Painter& p, const StepDisplay& sd, int head, const PanelPlace& place, float x);

}  // namespace attn::gui
