#include "app/gui/state/tour.h"

#include <filesystem>

#include "app/gui/state/app_state.h"
#include "app/gui/state/lesson_apply.h"
#include "app/io/data_dir.h"

namespace attn::gui {

std::string tour_file(const std::string& language) {
    const std::string dir = io::data_dir();
    if (dir.empty()) return "";
    std::error_code ec;
    for (const std::string& code : {language, std::string("en")}) {
        const std::string path = dir + "/lessons/tour." + code + ".json";
        if (std::filesystem::is_regular_file(path, ec)) return path;
    }
    return "";
}

void set_tour_words(TourState& tour, const lesson::Slide& slide, int index, int count) {
    tour.index = index;
    tour.count = count;
    tour.title = slide.title;
    tour.text = slide.note;
}

ComputeRequest show_tour_slide(AppState& state, const lesson::OpenedLesson& tour, int index) {
    if (!state.tour.running()) {
        const Step* shown = state.results.step_at(state.ui.playback.step());
        state.tour.before = TourReturn{state.session, shown ? shown->name() : state.ui.resume_step, state.ui.canvas.enlarged_head,
                                       state.ui.show_storage, state.ui.code.show};
    }
    const lesson::OpenedSlide& opened = tour.slides[static_cast<size_t>(index)];
    ComputeRequest request = apply_slide(state, opened);
    set_tour_words(state.tour, opened.slide, index, static_cast<int>(tour.slides.size()));
    return request;
}

bool close_tour(AppState& state) {
    if (!state.tour.running()) return false;
    std::optional<TourReturn> before = std::move(state.tour.before);
    state.tour = TourState{};
    state.ui.lesson.marks = lesson::SlideView{};
    state.ui.lesson.pending.reset();
    state.ui.lesson.number = 0;
    state.ui.lesson.title.clear();
    state.ui.canvas.follow.cell = CellRef{};
    if (!before) return false;
    state.session = std::move(before->session);
    state.ui.resume_step = before->step;  // taken by accept_result when the session's trace is in
    state.ui.canvas.enlarged_head = before->enlarged_head;
    state.ui.show_storage = before->show_storage;
    state.ui.code.show = before->show_code;
    return true;
}

}  // namespace attn::gui
