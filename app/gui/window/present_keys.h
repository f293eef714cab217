// The presenter's keys (before the other shortcuts, which never see the keys used here):
//   B          blanks the screen; any key brings it back
//   N          the speaker note over the canvas (with a lesson)
//   L          held: the laser pointer; Shift+L keeps it on (View > Laser pointer too)
//   D          the pen on and off; while it is on, 1-4 pick its colour and Ctrl+Z undoes
//              the last drawing (otherwise Ctrl+Z is left to the slide edits' undo)
//   C          clears the screen's (the slide's) drawings
//   Right, PageDown  with a lesson, first play the slide's step animation, once
// The pen's drawings on screen are the slide's: keep_slide_drawings stores them in it.
#pragma once

#include "app/gui/state/ui_state.h"
#include "app/gui/window/key_actions.h"
#include "app/lesson/lesson.h"

namespace attn::gui {

// Carries out the presenter's keys of this frame on `ui` and takes them out of `presses`.
// `lesson_open`: a lesson is presented (N and the slide's animation need one).
void presenter_keys(KeyPresses& presses, UiState& ui, bool lesson_open);
// Once a frame: whether L is held (not while typing), and the pointer's trail at the
// mouse position (x, y) at time `now` (seconds).
void follow_pointer(PresentUi& present, bool l_held, float x, float y, double now);
// A slide is on screen (index `index` of the lesson's slides that open): its place, title
// and note, the next slide's title; its animation is not played yet, no stroke is in progress.
void enter_slide(PresentUi& present, const lesson::OpenedLesson& lesson, int index);
// When the screen's drawings changed: stores them in the lesson's slide on screen (none
// open: they stay with the screen, in ui.lesson.marks).
void keep_slide_drawings(UiState& ui, lesson::OpenedLesson* lesson, int index);

}  // namespace attn::gui
