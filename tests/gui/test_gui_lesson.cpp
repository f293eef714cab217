// A lesson slide put on the window's state (app/gui/lesson_apply.h): the session computes
// what the slide says, and once its trace is in, the step, moment, head and pinned cell
// are the slide's; the arrow keys move between slides.
#include <doctest/doctest.h>

#include <GLFW/glfw3.h>

#include "app/gui/state/lesson_apply.h"
#include "app/gui/window/lesson_keys.h"

using namespace attn;
using namespace attn::gui;

namespace {

lesson::OpenedSlide opened(lesson::Slide slide) {
    const Result<io::Problem> problem = lesson::slide_problem(slide);
    REQUIRE_MESSAGE(problem.ok(), problem.error());
    return {std::move(slide), problem.value()};
}

// Applies the slide and hands its computed trace to accept_result, as the window does.
void show(AppState& state, const lesson::OpenedSlide& slide) {
    const ComputeRequest request = apply_slide(state, slide);
    CHECK(state.ui.lesson.pending.has_value());
    accept_result(state, ComputeWorker::compute(request, 1), 0.0);
}

}  // namespace

TEST_CASE("a slide puts its model, step, moment, head, pinned cell and panels on the window") {
    lesson::Slide slide;
    slide.number = 3;
    slide.title = "pronoun head";
    slide.setup.model = "tiny-lm";
    slide.setup.sentence = "the dog saw the cat and it ran";
    slide.view.step = StepId::AttnWeights;
    slide.view.head = 2;
    slide.view.moment = 0.5f;
    slide.view.pinned = lesson::CellAnchor{StepId::AttnWeights, 2, 7, 2, lesson::CellPart::Result};
    slide.view.highlighted = {lesson::CellAnchor{StepId::AttnScores, 1, 1, 1, lesson::CellPart::Result}};
    slide.view.panels = {{"storage", false}, {"code", true}};
    AppState state;
    show(state, opened(slide));
    REQUIRE(state.results.trace);
    CHECK(state.session.model != nullptr);
    CHECK(state.ui.playback.step() == state.results.trace->index_of(StepId::AttnWeights));
    CHECK(state.ui.playback.progress() == doctest::Approx(0.5f));
    CHECK(state.ui.canvas.enlarged_head == 2);
    const CellRef& pinned = state.ui.canvas.pinned;
    CHECK(pinned.valid());
    CHECK(pinned.step == state.ui.playback.step());
    CHECK((pinned.panel == 2 && pinned.row == 7 && pinned.col == 2));
    CHECK_FALSE(state.ui.show_storage);
    CHECK(state.ui.code.show);
    CHECK_FALSE(state.ui.lesson.pending.has_value());
    CHECK(state.ui.lesson.marks.highlighted == slide.view.highlighted);
    CHECK(state.ui.lesson.number == 3);
}

TEST_CASE("the next slide replaces the screen, and a cell the step does not have is not pinned") {
    lesson::Slide first;
    first.setup.model = "tiny-lm";
    first.view.step = StepId::AttnWeights;
    first.view.pinned = lesson::CellAnchor{StepId::AttnWeights, 0, 1, 1, lesson::CellPart::Result};
    lesson::Slide second;
    second.setup.recipe = "llama";
    second.view.step = StepId::QRot;
    second.view.pinned = lesson::CellAnchor{StepId::QRot, 0, 40, 0, lesson::CellPart::Result};  // the recipe has 4 rows
    AppState state;
    show(state, opened(first));
    CHECK(state.ui.canvas.pinned.valid());
    show(state, opened(second));
    CHECK(state.session.model == nullptr);
    CHECK(state.session.config.rope);
    CHECK(state.ui.playback.step() == state.results.trace->index_of(StepId::QRot));
    CHECK(state.ui.playback.progress() == doctest::Approx(1.0f));
    CHECK(state.ui.canvas.enlarged_head == -1);
    CHECK_FALSE(state.ui.canvas.pinned.valid());
}

TEST_CASE("Right and Page Down go to the next slide, Left and Page Up back, within the lesson") {
    KeyPresses presses = {{GLFW_KEY_RIGHT, 0}, {GLFW_KEY_SPACE, 0}};
    CHECK(slide_key_target(presses, 0, 3) == 1);
    REQUIRE(presses.size() == 1);  // the others stay for the playback
    CHECK(presses.front().first == GLFW_KEY_SPACE);
    presses = {{GLFW_KEY_PAGE_DOWN, 0}};
    CHECK(slide_key_target(presses, 2, 3) == -1);  // the last slide stays
    presses = {{GLFW_KEY_LEFT, 0}, {GLFW_KEY_PAGE_UP, 0}};
    CHECK(slide_key_target(presses, 2, 3) == 0);
    CHECK(presses.empty());
}
