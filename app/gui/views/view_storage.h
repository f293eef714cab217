// The storage strip: the 1-D buffer under the current tensor, coloured by head, with
// arcs that follow the first elements in logical order. A view or transpose keeps the
// buffer (same strip, other strides); a contiguous copy makes a new one.
#pragma once

#include "app/gui/views/canvas_painter.h"

namespace attn::gui {

// Draws the strip of the frame's current step inside `area`.
void draw_storage_strip(const Painter& p, const Rect& area);

}  // namespace attn::gui
