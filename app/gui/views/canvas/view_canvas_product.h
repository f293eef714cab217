// Projection steps drawn as a matrix product:        [ W^T ]
//                                                     [ b   ]
//                                              [ X ]  [ Y   ]
// X is the step's source, W^T and b come from trace.weights() (pooled textures baked by
// HeatmapCache; numbers read from the CPU matrices), Y fills cell by cell while the
// row of X and the column of W^T that make the current cell are lit.
#pragma once

#include "app/gui/views/canvas/view_canvas_anim.h"

namespace attn::gui {

// Draws the current Projection step as X · W^T + b inside `area` and fills `out` (Y's
// panels, for hit testing and outlines). Returns false, having drawn nothing, when the
// step is not a projection or the trace carries no usable weights.
bool draw_product(const Painter& p, const CanvasUi& ui, const Rect& area, ResultDrawn& out);

}  // namespace attn::gui
