#include "app/gui/state/lesson_apply.h"

#include <algorithm>

#include "app/gui/state/capture_slide.h"

namespace attn::gui {

ComputeRequest apply_slide(AppState& state, const lesson::OpenedSlide& opened) {
    const lesson::Slide& slide = opened.slide;
    Session session;
    init_from_problem(session, opened.problem);
    session.batch_item = slide.view.batch_item;
    session.decode_step = slide.view.decode_step;  // the generation's step (token strip)
    state.session = std::move(session);
    for (const auto& [name, open] : slide.view.panels) {
        if (name == "storage") state.ui.show_storage = open;
        if (name == "code") state.ui.code.show = open;
    }
    state.ui.canvas.pinned = CellRef{};
    state.ui.canvas.hovered = CellRef{};
    state.ui.canvas.follow.cell = CellRef{};  // the slide's own, if any, once its trace is in
    state.ui.resume_step = slide.view.step ? step_name(*slide.view.step) : "";
    state.ui.lesson.pending = slide.view;
    state.ui.lesson.number = slide.number;
    state.ui.lesson.title = slide.title;
    state.ui.lesson.applied = LessonUi::Applied{slide.setup, setup_of(state.session)};
    if (!state.tour.running()) {  // a slide pointing at the window: its words in the bubble (tour.h)
        const bool points = !slide.view.elements.empty();
        state.tour.title = points ? slide.title : "";
        state.tour.text = points ? slide.note : "";
    }
    ComputeRequest request;
    request.prebuilt = std::make_shared<const io::Problem>(opened.problem);
    request.batch_item = slide.view.batch_item;
    request.decode_step = slide.view.decode_step;
    request.focus_step = slide.view.step;
    request.colour_scale = colour_scale_of(state.settings);
    return request;
}

namespace {

// Rows and columns of the matrix an anchor's part names in step `sd` (0, 0: none). An
// input cell is a cell of X, the projection's source: the result's rows, X's columns.
std::pair<int, int> part_extent(const Trace& trace, const StepDisplay& sd, const lesson::CellAnchor& anchor) {
    using Part = lesson::CellPart;
    const std::vector<Panel>& panels = anchor.part == Part::Weight ? sd.weight_panels
                                       : anchor.part == Part::Bias ? sd.bias_panels
                                                                   : sd.panels;
    if (anchor.panel >= static_cast<int>(panels.size())) return {0, 0};
    const Panel& panel = panels[static_cast<size_t>(anchor.panel)];
    if (anchor.part != Part::Input) return {panel.rows, panel.cols};
    const Step& step = trace.steps[static_cast<size_t>(sd.step)];
    const int source = step.sources.empty() ? -1 : trace.index_of(step.sources.front());
    if (step.kind != StepKind::Projection || source < 0) return {0, 0};
    const std::vector<int64_t> shape = trace.steps[static_cast<size_t>(source)].tensor.shape();
    return {panel.rows, static_cast<int>(shape.back())};
}

}  // namespace

CellRef cell_of(const Results& results, const lesson::CellAnchor& anchor) {
    if (!results.trace || !results.model) return CellRef{};
    const int step = results.trace->index_of(anchor.step);
    if (step < 0 || step >= static_cast<int>(results.model->steps.size())) return CellRef{};
    const auto [rows, cols] = part_extent(*results.trace, results.model->steps[static_cast<size_t>(step)], anchor);
    if (anchor.row >= rows || anchor.col >= cols) return CellRef{};
    CellRef cell;
    cell.step = step;
    cell.panel = anchor.panel;
    cell.row = anchor.row;
    cell.col = anchor.col;
    cell.part = static_cast<CellRef::Part>(anchor.part);
    return cell;
}

Message slide_status(const lesson::OpenedLesson& lesson, int index) {
    const lesson::Slide& slide = lesson.slides[static_cast<size_t>(index)].slide;
    return Message("lesson.status.slide", {{"number", index + 1}, {"count", lesson.slides.size()}, {"title", slide.title}});
}

void show_pending_slide(AppState& state) {
    if (!state.ui.lesson.pending || !state.results.trace) return;
    const lesson::SlideView view = std::move(*state.ui.lesson.pending);
    state.ui.lesson.pending.reset();
    const Trace& trace = *state.results.trace;
    const int step = view.step ? std::max(0, trace.index_of(*view.step)) : 0;
    state.ui.playback.pause();
    state.ui.playback.set_position(step, view.moment);
    CanvasUi& canvas = state.ui.canvas;
    canvas.enlarged_head = view.head < trace.config.H() ? view.head : -1;
    canvas.focus_head = std::max(0, canvas.enlarged_head);
    canvas.pinned = view.pinned ? cell_of(state.results, *view.pinned) : CellRef{};
    canvas.follow.cell = view.followed ? cell_of(state.results, *view.followed) : CellRef{};
    state.ui.lesson.marks = view;
}

std::optional<lesson::CellAnchor> unplaced_follow(const AppState& state) {
    const std::optional<lesson::CellAnchor>& followed = state.ui.lesson.marks.followed;
    if (!followed || state.ui.canvas.follow.cell.valid() || cell_of(state.results, *followed).valid()) return std::nullopt;
    return followed;
}

void place_pending_follow(AppState& state) {
    const std::optional<lesson::CellAnchor>& followed = state.ui.lesson.marks.followed;
    if (followed && !state.ui.canvas.follow.cell.valid()) state.ui.canvas.follow.cell = cell_of(state.results, *followed);
}

}  // namespace attn::gui
