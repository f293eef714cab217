// The Lesson menu's items: New, Open, Save, Save as, Present, then the slide edits (Add,
// Update, Delete, Move up, Move down) and Undo / Redo. Each comes back as a LessonEdit.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/lesson_doc.h"

namespace attn::gui {

// Items of the open Lesson menu for `doc`; `have_trace`: the screen has a picture to capture.
Actions draw_lesson_menu_items(const LessonDoc& doc, bool have_trace);

}  // namespace attn::gui
