#include "app/gui/window/tour_actions.h"

#include <GLFW/glfw3.h>

#include "app/gui/window/lesson_keys.h"
#include "app/gui/window/window_parts.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

// The tour in the language in use, opened once (every slide checked, as `--lesson` does).
bool open_tour(AppState& state, WindowParts& parts, double now) {
    if (parts.tour && parts.tour->lesson.language == text::active().code()) return true;
    const std::string path = tour_file(text::active().code());
    Result<lesson::OpenedLesson> opened = path.empty() ? Result<lesson::OpenedLesson>::failure(Message("tour.no_file"))
                                                       : lesson::open_lesson(path);
    Message why;
    if (!opened) why = opened.message();
    else if (opened->slides.empty()) why = opened->problems.empty() ? Message("tour.no_file") : opened->problems.front();
    if (!why.empty()) {
        set_status(state.ui, Message("tour.cannot_open", {{"why", std::move(why)}}), now);
        return false;
    }
    parts.tour = std::make_unique<lesson::OpenedLesson>(std::move(opened.value()));
    return true;
}

void show(AppState& state, WindowParts& parts, int index, double now) {
    state.results.posted_generation = parts.worker.post(show_tour_slide(state, *parts.tour, index));
    state.results.posted_time = now;
}

}  // namespace

Actions tour_key_actions(KeyPresses& presses, const TourState& tour) {
    Actions out;
    if (!tour.running()) return out;
    out.tour_slide = slide_key_target(presses, tour.index, tour.count);
    for (const auto& press : presses) out.close_tour |= press.first == GLFW_KEY_ESCAPE;
    return out;
}

void apply_tour_actions(AppState& state, const Actions& actions, WindowParts& parts, double now) {
    if (actions.close_tour) {
        if (close_tour(state)) post_request(state, parts, now);
        return;
    }
    if (actions.start_tour && open_tour(state, parts, now)) {
        show(state, parts, 0, now);
        return;
    }
    if (state.tour.running() && parts.tour && actions.tour_slide >= 0 &&
        actions.tour_slide < static_cast<int>(parts.tour->slides.size()))
        show(state, parts, actions.tour_slide, now);
}

}  // namespace attn::gui
