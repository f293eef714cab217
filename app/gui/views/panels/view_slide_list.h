// The slide list beside the canvas while a lesson is being made: each slide's thumbnail
// and title (click: go there; drag onto another: move it there), the current slide's title
// and speaker note editable in place, and the lesson's file and unsaved mark on top.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/lesson_doc.h"

namespace attn::gui {

class SlidePictures;

// `thumbnails` (FrameContext::thumbnails) may be null (no pictures yet). What the user did comes back as a LessonEdit.
Actions draw_slide_list(const LessonDoc& doc, const SlidePictures* thumbnails, bool light_theme);

}  // namespace attn::gui
