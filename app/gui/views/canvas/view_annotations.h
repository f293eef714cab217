// The pen's drawings on the canvas (lesson::Annotation): drawn over the matrices they are
// anchored to (display/annotations.h), in the window and in every picture of a slide,
// and, while the pen is on, made by dragging on the canvas (Shift+drag: a straight arrow).
#pragma once

#include <vector>

#include "app/gui/display/annotations.h"
#include "app/gui/state/ui_state.h"
#include "app/gui/views/canvas/view_canvas_anim.h"

namespace attn::gui {

// Where draw_result put the step's matrices this frame (the result's panels, and a
// projection's X, W^T and b blocks), for the drawings and the pen.
std::vector<PlacedMatrix> placed_matrices(const CanvasFrame& frame, const ResultDrawn& drawn);

// In the canvas's window, after the canvas: the pen's mouse (when `interactive` and the
// pen is on) and every drawing of the screen whose matrix is placed, the one in progress
// last. Sets ui.present.drawings_changed when a drawing was kept.
void draw_canvas_drawings(UiState& ui, bool interactive);

// The drawings over `placed` into `dl`, sized for a screen `screen_h` pixels high.
void draw_annotations(ImDrawList* dl, const std::vector<PlacedMatrix>& placed,
                      const std::vector<lesson::Annotation>& drawings, float screen_h);

}  // namespace attn::gui
