// The screen as a lesson slide: the exact inverse of apply_slide (lesson_apply.h), for
// Lesson > Add slide and Update slide. Display-free: it reads the state, nothing else.
#pragma once

#include "app/gui/state/app_state.h"
#include "app/lesson/lesson.h"

namespace attn::gui {

// What the session computes, as a slide's setup: the model or recipe, the sentence, the
// layer, and the command line's options that take the configuration from the model's,
// the recipe's or the default one (lesson::options_from), plus the input files by path.
lesson::SlideSetup setup_of(const Session& session);
// The anchor a canvas cell stands for (the inverse of cell_of); none for an invalid cell.
std::optional<lesson::CellAnchor> anchor_of(const Results& results, const CellRef& cell);
// The screen as a slide with `title` and `note`: its setup (the slide last applied, word for
// word, while the session still computes what it did; else setup_of), the step, head, batch
// item and moment on screen, the pinned and the followed cell, the marks of the step on
// screen (highlighted cells, drawings) and both panels, open or closed.
lesson::Slide capture_slide(const AppState& state, std::string title, std::string note);

}  // namespace attn::gui
