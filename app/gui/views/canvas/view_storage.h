// The storage strip: the 1-D buffer under the current tensor, coloured by head, with
// arcs that follow the first elements in logical order. A view or transpose keeps the
// buffer (same strip, other strides); a contiguous copy makes a new one.
#pragma once

#include "app/gui/views/canvas/canvas_painter.h"

namespace attn::gui {

// Height the strip needs at `width`: its caption wraps onto more lines when narrow.
float storage_strip_height(const Painter& p, float width);
// Draws the strip of the frame's current step inside `area`.
void draw_storage_strip(const Painter& p, const Rect& area);

}  // namespace attn::gui
