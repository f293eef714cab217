// The current step in motion: panels that travel (view, transpose, concat), cells that
// fill in reading order (products), rows that turn into probabilities (softmax), fades;
// and the column of source tensors with what feeds the active cell lit up.
#pragma once

#include "app/gui/views/canvas/canvas_painter.h"

namespace attn::gui {

// What draw_result drew, for hit testing and for the sources' highlights.
struct ResultDrawn {
    StepLayout layout;
    std::vector<int> visible;
    std::vector<std::pair<int, int>> sizes;
    CellRef active;  // the cell being computed right now (raster fill), if any
    // Projections: where X, W^T and b sit, so their cells can be hovered too.
    struct Operand {
        CellRef::Part part = CellRef::Part::Input;
        int panel = 0;  // the result panel (column group) a W^T or b block belongs to
        Rect rect;
        int rows = 0, cols = 0;
    };
    std::vector<Operand> operands;
};
// Raster fill of one result panel at `progress`: cells appear in reading order (joined
// column groups fill as one matrix), the current cell is outlined and, if `active` is
// still empty, becomes the active cell. Returns where the numbers stop.
struct RasterStop {
    int row = 0, col = 0;
};
RasterStop draw_raster_panel(const Painter& p, const CanvasUi& ui, const StepDisplay& sd, int panel,
                             const PanelPlace& place, float progress, CellRef& active);
// The current step's panels inside `area`, at the frame's progress.
ResultDrawn draw_result(const Painter& p, CanvasUi& ui, const Rect& area);
// The current step's sources (one head of per-head sources) inside `area`.
void draw_sources(const Painter& p, const CanvasUi& ui, const Rect& area, const CellRef& active);

}  // namespace attn::gui
