// Help > Tour (state/tour.h, window/tour_actions.h, display/tour_bubble.h): its keys, where
// its bubble goes, and that closing it gives back the learner's session.
#include <doctest/doctest.h>

#include <GLFW/glfw3.h>

#include <filesystem>

#include "app/gui/display/tour_bubble.h"
#include "app/gui/state/element_rects.h"
#include "app/gui/state/tour.h"
#include "app/gui/window/tour_actions.h"
#include "tests/gui/headless_imgui.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;

TEST_CASE("while the tour runs Right and Left move it and Escape closes it; otherwise the keys are the playback's") {
    TourState tour;
    KeyPresses presses = {{GLFW_KEY_RIGHT, 0}, {GLFW_KEY_SPACE, 0}};
    Actions idle = tour_key_actions(presses, tour);
    CHECK(idle.tour_slide == -1);
    CHECK(presses.size() == 2);
    tour.index = 2;
    tour.count = 9;
    const Actions next = tour_key_actions(presses, tour);
    CHECK(next.tour_slide == 3);
    CHECK_FALSE(next.close_tour);
    REQUIRE(presses.size() == 1);
    CHECK(presses.front().first == GLFW_KEY_SPACE);
    presses = {{GLFW_KEY_LEFT, 0}, {GLFW_KEY_ESCAPE, 0}};
    const Actions back = tour_key_actions(presses, tour);
    CHECK(back.tour_slide == 1);
    CHECK(back.close_tour);
    REQUIRE(presses.size() == 1);  // Escape also leaves full screen
    CHECK(presses.front().first == GLFW_KEY_ESCAPE);
}

TEST_CASE("the bubble sits beside its target, inside the screen, never over it") {
    const Rect screen{0, 0, 1024, 768};
    const auto height = [](float w) { return 60000.0f / w; };  // narrower: taller
    const std::vector<float> widths{384, 288, 224, 176};
    // The dock slots of a 1024x768 window: controls, canvas, timeline, explanation, inspector, menu bar.
    const Rect targets[] = {{0, 24, 245, 720}, {245, 24, 510, 620}, {245, 645, 510, 100},
                            {755, 24, 269, 320}, {755, 344, 269, 400}, {0, 0, 1024, 22}};
    for (const Rect& target : targets) {
        CAPTURE(target.x);
        CAPTURE(target.y);
        const Rect at = place_bubble(screen, target, 10.0f, widths, height);
        CHECK_FALSE(rects_overlap(at, target));
        CHECK(at.x >= 0.0f);
        CHECK(at.y >= 0.0f);
        CHECK(at.right() <= 1024.0f);
        CHECK(at.bottom() <= 768.0f);
        CHECK(at.h == doctest::Approx(height(at.w)));
    }
    // A target filling the screen: the narrowest bubble, in a corner, still on screen.
    const Rect all = place_bubble(screen, screen, 10.0f, widths, height);
    CHECK(all.w == 176.0f);
    CHECK(all.right() <= 1024.0f);
    CHECK(all.bottom() <= 768.0f);
    CHECK(bounding_rect({{0, 0, 10, 10}, {20, 5, 10, 30}}).bottom() == 35.0f);
}

TEST_CASE("the window's parts are found by the IDs lessons use, only when drawn this frame") {
    ElementRects rects;
    CHECK_FALSE(rects.find("inspector"));
    rects.record("inspector", Rect{700, 300, 300, 400});
    REQUIRE(rects.find("inspector"));
    CHECK(rects.find("inspector")->y == 300.0f);
    CHECK_FALSE(rects.find("nothing"));
    rects.clear();
    CHECK_FALSE(rects.find("inspector"));
}

TEST_CASE("the tour's slides replace the session while it runs, and closing it gives the learner's back") {
    const std::string file = (std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "assets" / "lessons" / "tour.en.json").string();
    const Result<lesson::OpenedLesson> tour = lesson::open_lesson(file);
    REQUIRE_MESSAGE(tour.ok(), tour.error());
    AppState state = testing::state_for(test_configs::sized(3, 12, 3));
    state.session.sentence = "my own words";
    const Session mine = state.session;
    show_tour_slide(state, tour.value(), 0);
    CHECK(state.tour.running());
    CHECK(state.tour.count == static_cast<int>(tour->slides.size()));
    CHECK(state.tour.title == tour->slides[0].slide.title);
    CHECK(state.session.sentence != mine.sentence);
    show_tour_slide(state, tour.value(), 4);
    CHECK(state.tour.index == 4);
    CHECK(state.tour.text == tour->slides[4].slide.note);
    CHECK(close_tour(state));  // the learner's session must be computed again
    CHECK_FALSE(state.tour.running());
    CHECK(state.session.sentence == "my own words");
    CHECK(state.session.config.hidden_dim == 12);
    CHECK(state.ui.lesson.marks.elements.empty());
    CHECK_FALSE(close_tour(state));
}

// Issue 28 item 21: starting on step 1 and pressing Escape on the last slide landed on
// the last slide's step; the learner's own step, head and panels come back.
TEST_CASE("closing the tour on its last slide goes back to the learner's step, head and panels") {
    const std::string file = (std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "assets" / "lessons" / "tour.en.json").string();
    const Result<lesson::OpenedLesson> tour = lesson::open_lesson(file);
    REQUIRE_MESSAGE(tour.ok(), tour.error());
    AppState state = testing::state_for(test_configs::sized(3, 12, 3));
    state.ui.playback.set_position(0, 1.0f);  // step 1
    const std::string first = state.results.trace->steps.front().name();
    state.ui.canvas.enlarged_head = 2;
    state.ui.show_storage = false;
    state.ui.code.show = false;
    const int last = static_cast<int>(tour->slides.size()) - 1;
    for (int slide = 0; slide <= last; ++slide) {
        ComputeRequest request = show_tour_slide(state, tour.value(), slide);
        request.max_extent = 256;
        accept_result(state, ComputeWorker::compute(request, static_cast<uint64_t>(slide + 2)), 1.0);
    }
    REQUIRE(state.results.step_at(state.ui.playback.step()));
    REQUIRE(state.results.step_at(state.ui.playback.step())->name() != first);  // the last slide moved on
    KeyPresses escape = {{GLFW_KEY_ESCAPE, 0}};
    REQUIRE(tour_key_actions(escape, state.tour).close_tour);
    REQUIRE(close_tour(state));
    const std::optional<ComputeRequest> request = make_request(state.session);
    REQUIRE(request);
    accept_result(state, ComputeWorker::compute(*request, 100), 2.0);
    REQUIRE(state.results.step_at(state.ui.playback.step()));
    CHECK(state.results.step_at(state.ui.playback.step())->name() == first);
    CHECK(state.ui.canvas.enlarged_head == 2);
    CHECK_FALSE(state.ui.show_storage);
    CHECK_FALSE(state.ui.code.show);
}
