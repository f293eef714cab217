// Putting a lesson's slide on the presenter's state: its number, title, note and the next
// slide's title, with the slide's animation and the pen's wiped drawings reset. Used by the
// window's slide keys and by the lesson exports (export/lesson_snapshot.cpp).
#pragma once

#include "app/gui/state/present_ui.h"
#include "app/lesson/lesson.h"

namespace attn::gui {

// A slide is on screen (index `index` of the lesson's slides that open): its place, title
// and note, the next slide's title; its animation is not played yet, no stroke is in progress.
void enter_slide(PresentUi& present, const lesson::OpenedLesson& lesson, int index);

}  // namespace attn::gui
