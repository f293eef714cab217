#include "app/gui/window/lesson_keys.h"

#include <GLFW/glfw3.h>

#include <algorithm>

#include "app/gui/state/lesson_apply.h"
#include "app/lesson/lesson.h"

namespace attn::gui {

int slide_key_target(KeyPresses& presses, int current, int count) {
    int target = current;
    for (auto it = presses.begin(); it != presses.end();) {
        const int key = it->first;
        const bool next = key == GLFW_KEY_RIGHT || key == GLFW_KEY_PAGE_DOWN;
        const bool back = key == GLFW_KEY_LEFT || key == GLFW_KEY_PAGE_UP;
        if (!next && !back) {
            ++it;
            continue;
        }
        target = std::clamp(target + (next ? 1 : -1), 0, std::max(0, count - 1));
        it = presses.erase(it);
    }
    return target == current ? -1 : target;
}

namespace {

// "slide 2 of 8: <title>" for the status line (a presenter will show more).
Message slide_status(const lesson::OpenedLesson& lesson, int index) {
    const lesson::Slide& slide = lesson.slides[static_cast<size_t>(index)].slide;
    return Message("lesson.status.slide", {{"number", index + 1}, {"count", lesson.slides.size()}, {"title", slide.title}});
}

}  // namespace

ComputeRequest start_lesson(AppState& state, WindowParts& parts) {
    const lesson::OpenedLesson& lesson = *parts.lesson;
    parts.slide = 0;
    set_status(state.ui, lesson.problems.empty() ? slide_status(lesson, 0) : lesson.problems.front(), glfwGetTime());
    return apply_slide(state, lesson.slides.front());
}

void follow_lesson_keys(AppState& state, WindowParts& parts) {
    const lesson::OpenedLesson& lesson = *parts.lesson;
    const int target = slide_key_target(parts.keys.presses, parts.slide, static_cast<int>(lesson.slides.size()));
    if (target < 0) return;
    parts.slide = target;
    state.results.posted_generation = parts.worker.post(apply_slide(state, lesson.slides[static_cast<size_t>(target)]));
    state.results.posted_time = glfwGetTime();
    set_status(state.ui, slide_status(lesson, target), glfwGetTime());
}

}  // namespace attn::gui
