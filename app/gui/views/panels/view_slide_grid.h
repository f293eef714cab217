// The slide grid (G while a lesson is presented): every slide's picture over the whole
// screen, numbered and titled, the chosen one framed; the arrows and Enter pick one
// (window/lesson_keys.h), and so does a click.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/lesson_doc.h"
#include "app/gui/state/ui_state.h"

namespace attn::gui {

class SlidePictures;

// Draws the grid when ui.present.grid is on; a click on a slide asks for it (go_to_slide)
// and closes the grid. A slide whose picture is not drawn yet shows its frame and title.
Actions draw_slide_grid(const LessonDoc& doc, const SlidePictures* thumbnails, UiState& ui);

}  // namespace attn::gui
