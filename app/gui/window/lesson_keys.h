// The keys that move through a lesson's slides in the window (`attnviz --lesson`).
#pragma once

#include <string>

#include "app/gui/state/present_ui.h"
#include "app/gui/window/key_actions.h"

namespace attn::gui {

// While a lesson is shown: Right or Page Down (what presentation clickers send) asks for
// the next slide, Left or Page Up for the previous one, Home and End for the first and
// the last. With `typed` (the digits typed so far, kept between frames), digits are
// gathered and Enter goes to that slide by its number (1 is the first), as presentation
// programs do; any other key forgets them. Returns the slide's index, or -1 to stay; the
// keys it used are taken out of `presses`, so the playback does not move too.
int slide_key_target(KeyPresses& presses, int current, int count, std::string* typed = nullptr);
// While the slide grid is open (G, present.grid): the arrows move the framed slide (rows of
// slide_grid_columns), Home and End go to the first and last, Enter (or a click, in the
// view) shows it and closes the grid, G or Escape closes it. Every key of the frame is the
// grid's. Returns the slide to show, or -1.
int slide_grid_keys(KeyPresses& presses, PresentUi& present, int count);

}  // namespace attn::gui
