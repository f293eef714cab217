#include "app/gui/state/enter_slide.h"

#include <algorithm>

namespace attn::gui {

void enter_slide(PresentUi& present, const lesson::OpenedLesson& lesson, int index) {
    const int count = static_cast<int>(lesson.slides.size());
    present.slide = std::clamp(index, 0, std::max(0, count - 1));
    present.slides = count;
    const lesson::Slide& slide = lesson.slides[static_cast<size_t>(present.slide)].slide;
    present.slide_title = slide.title;
    present.note = slide.note;
    present.next_title = present.slide + 1 < count ? lesson.slides[static_cast<size_t>(present.slide) + 1].slide.title : "";
    present.animation_played = false;
    present.drawing.reset();
    present.wiped.clear();  // Ctrl+Z brings back only this slide's
}

}  // namespace attn::gui
