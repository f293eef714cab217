// Making a lesson in the window: carries out the LessonEdit a view or a key asked for
// (lesson_doc.h holds the edits themselves), presents the lesson, asks before unsaved
// slides are lost, and keeps the slide list's thumbnails drawn.
#pragma once

#include <optional>

#include "app/gui/state/app_state.h"
#include "app/gui/window/key_actions.h"
#include "app/gui/window/window_parts.h"

namespace attn::gui {

// Ctrl+Z: undo the last slide edit; Ctrl+Shift+Z or Ctrl+Y: redo it (while a lesson is
// being made). The keys used are taken out of `presses`. (The pen, while on, routes
// Ctrl+Z to its strokes instead: call this only when it is off.)
std::optional<LessonEdit> lesson_edit_keys(KeyPresses& presses, const LessonDoc& doc);
// Carries out `edit` after the frame (it may post a compute, open a dialog, write a file).
void apply_lesson_edit(AppState& state, WindowParts& parts, const LessonEdit& edit, double now);
// After apply_actions: a quit (Ctrl+Q, File > Quit, the window's close button) with unsaved
// slide edits is held and asks first; presenting ends with presentation mode; one missing
// thumbnail is drawn. Needs the window's GL context, outside an ImGui frame.
void after_lesson_frame(AppState& state, WindowParts& parts, double now);

}  // namespace attn::gui
