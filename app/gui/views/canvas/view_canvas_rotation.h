// RoPE on the canvas: under q_rot and k_rot, one dial per coordinate pair of one head
// vector, its arrow turning from the source's (q_heads / k_heads) coordinates to the
// rotated ones as the step animates (the angle grows with the progress), the turned
// angle written under it. Which vector: the hovered or pinned cell's row and head on
// this step, else the last position of the chosen head (it turns the most).
// Numbers come from the trace (rotation_pairs.h). Internal to app/gui/views.
#pragma once

#include "app/gui/views/canvas/canvas_painter.h"

namespace attn::gui {

// Height of the dials' band at width `w` (0 for steps that are not rotations).
float rotation_band_height(const Painter& p, float w);
// The band: a title line, then the dials, inside `area`.
void draw_rotation_band(const Painter& p, const CanvasUi& ui, const Rect& area);

}  // namespace attn::gui
