// The pen's drawings (lesson::Annotation) on the canvas, without a display: where the
// canvas put each matrix of cells this frame, a pixel turned into a cell-anchored point
// and back, and the edits the pen makes (a stroke grows, the last one is undone, all are
// cleared). A point is kept in cells from its anchor cell's top-left corner, so a drawing
// stays on the same numbers at any window size (views/canvas/view_annotations draws them).
#pragma once

#include <array>
#include <optional>
#include <vector>

#include "app/gui/display/layout.h"
#include "app/lesson/lesson.h"

namespace attn::gui {

// One matrix of cells the canvas drew this frame: a panel of the step's result, or a
// projection's X, W^T or b block (`part`), over `rect` with rows x cols cells.
struct PlacedMatrix {
    StepId step = StepId::Input;
    int panel = 0;
    lesson::CellPart part = lesson::CellPart::Result;
    Rect rect;
    int rows = 0, cols = 0;
    float cell_w() const { return rect.w / static_cast<float>(cols > 0 ? cols : 1); }
    float cell_h() const { return rect.h / static_cast<float>(rows > 0 ? rows : 1); }
};

// A pixel on the canvas, in screen coordinates.
using Pixel = std::array<float, 2>;

// The placed matrix that holds `anchor`'s cell (same step, panel and part, the cell inside
// it), or null when it is not on screen.
const PlacedMatrix* placed_matrix_of(const std::vector<PlacedMatrix>& placed, const lesson::CellAnchor& anchor);
// The cell under pixel `at` (its step, panel, part, row and column), or none.
std::optional<lesson::CellAnchor> cell_under(const std::vector<PlacedMatrix>& placed, Pixel at);
// Pixel `at` as a point in cells from the top-left corner of `anchor`'s cell in `m`
// ((0.5, 0.5) is the cell's centre; a point may lie outside the cell, even the matrix).
std::array<float, 2> point_in_cells(const PlacedMatrix& m, const lesson::CellAnchor& anchor, Pixel at);
// The reverse: where a point anchored to `anchor` is on screen in `m`.
Pixel pixel_of(const PlacedMatrix& m, const lesson::CellAnchor& anchor, const std::array<float, 2>& point);

// The pen's colours in RGB (0..1), by position as lesson::kPenColours names them.
inline constexpr std::array<std::array<float, 3>, 4> kPenRgb = {{
    {0.95f, 0.16f, 0.16f},  // red
    {1.00f, 0.86f, 0.10f},  // yellow
    {0.20f, 0.85f, 0.30f},  // green
    {0.20f, 0.55f, 1.00f},  // blue
}};

// A stroke's line width and an arrow head's length in pixels on a screen `screen_h` high:
// they grow with the window, so a drawing reads the same on a laptop and a projector.
float pen_width(float screen_h);
float arrow_head_length(float screen_h);

// A new drawing started at pixel `at` on the cell under it; none when no cell is there.
std::optional<lesson::Annotation> start_drawing(const std::vector<PlacedMatrix>& placed, Pixel at,
                                                lesson::Annotation::Kind kind, int colour);
// The drawing follows the pointer to `at`: a freehand stroke gains a point (when it moved
// at least `min_move` pixels, up to lesson::kMaxStrokePoints), an arrow's end moves there.
// Returns false when the drawing's matrix is no longer on screen (nothing changes).
bool extend_drawing(lesson::Annotation& drawing, const std::vector<PlacedMatrix>& placed, Pixel at, float min_move);
// Keeps a finished drawing (one with at least two points, while fewer than
// lesson::kMaxAnnotations are kept); returns true when it was kept.
bool keep_drawing(std::vector<lesson::Annotation>& drawings, lesson::Annotation drawing);
// Removes the newest drawing; false when there is none.
bool undo_drawing(std::vector<lesson::Annotation>& drawings);
// Removes every drawing; false when there was none.
bool clear_drawings(std::vector<lesson::Annotation>& drawings);

}  // namespace attn::gui
