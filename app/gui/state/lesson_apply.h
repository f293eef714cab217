// A lesson slide put on the window's state: what the presenter (and `attnviz --lesson`,
// `attnviz snapshot --lesson`) calls to show a slide.
#pragma once

#include "app/gui/state/app_state.h"
#include "app/lesson/lesson.h"

namespace attn::gui {

// Makes `state` the slide's screen: the session becomes what the slide computes (as the
// window's start from a command line does), the panels it names open or close, and its
// view (step, moment, head, cells) waits in ui.lesson.pending for the slide's trace.
// Returns the request that computes it: post it to the worker, or compute it at once and
// hand the result to accept_result, which shows the pending view.
ComputeRequest apply_slide(AppState& state, const lesson::OpenedSlide& slide);
// Called by accept_result once a trace is in: places the pending slide's step and
// moment, head, pinned and followed cells. A cell the step's panels do not have is not
// pinned (or followed).
void show_pending_slide(AppState& state);
// The followed cell the slide on screen names on a step whose panels were not built yet when
// it was shown (the display model builds the step on screen first): none once it is placed,
// or when the canvas follows a cell of its own.
std::optional<lesson::CellAnchor> unplaced_follow(const AppState& state);
// Once the display model is complete: that cell is followed, unless another one is.
void place_pending_follow(AppState& state);
// "slide 2 of 8: <title>" for the status line: the slide at `index` among those that open.
Message slide_status(const lesson::OpenedLesson& lesson, int index);
// The cell of the canvas an anchor names, or an invalid CellRef when the trace or its
// display model has no such step, panel, row or column.
CellRef cell_of(const Results& results, const lesson::CellAnchor& anchor);

}  // namespace attn::gui
