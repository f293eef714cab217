// The presenter's keys (before the other shortcuts, which never see the keys used here):
//   B          blanks the screen; any key brings it back
//   N          the speaker note over the canvas (with a lesson)
//   L          held: the laser pointer; Shift+L keeps it on (View > Laser pointer too)
//   D          the pen on and off; while it is on, 1-4 pick its colour and Ctrl+Z undoes
//              the last drawing
//   C          clears the screen's (the slide's) drawings; Ctrl+Z brings them back (with the
//              pen on, once its own drawings are undone); otherwise Ctrl+Z is left to the
//              slide edits' undo
//   T          with a lesson, the note's clock (and the countdown to its minutes) starts again
//   Right, PageDown  with a lesson, first play the slide's step animation, once (a step
//              with nothing to play, the input, goes straight to the next slide)
// The pen's drawings on screen are the slide's: keep_slide_drawings stores them in it.
#pragma once

#include "app/gui/state/enter_slide.h"  // enter_slide, used by the slide keys

#include "app/gui/state/ui_state.h"
#include "app/gui/window/key_actions.h"
#include "app/lesson/lesson.h"

namespace attn::gui {

// Carries out the presenter's keys of this frame on `ui` and takes them out of `presses`.
// `lesson_open`: a lesson is presented (N and the slide's animation need one).
// `now`: the window's clock (T restarts the lesson's clock from it).
void presenter_keys(KeyPresses& presses, UiState& ui, bool lesson_open, double now = 0);
// Once a frame: whether L is held (not while typing), and the pointer's trail at the
// mouse position (x, y) at time `now` (seconds).
void follow_pointer(PresentUi& present, bool l_held, float x, float y, double now);
// When the screen's drawings changed: stores them in the lesson's slide on screen (none
// open: they stay with the screen, in ui.lesson.marks).
void keep_slide_drawings(UiState& ui, lesson::OpenedLesson* lesson, int index);

}  // namespace attn::gui
