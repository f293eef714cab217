// Presenting (issue 20, parts 3 and 4): the pen's drawings anchored to cells
// (display/annotations.h) at every window size, their undo and clear, and the presenter's
// keys (window/present_keys.h): B, N, L, D, 1-4, Ctrl+Z, C and the slide's animation
// played before Page Down moves on.
#include <doctest/doctest.h>

#include <GLFW/glfw3.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "app/gui/display/annotations.h"
#include "app/gui/display/colormap.h"
#include "app/gui/window/present_keys.h"
#include "app/gui/kit/shortcuts.h"
#include "tests/gui/headless_imgui.h"

using namespace attn;
using namespace attn::gui;

namespace {

// A (6, 9) score panel and a (6, 4) X block laid out as the canvas lays them inside a
// canvas of w x h (the style's sizes grow with the screen, as the UI scale does).
std::vector<PlacedMatrix> placed_at(float w, float h) {
    LayoutStyle style;
    const float s = h / 768.0f;
    style.gap *= s, style.max_cell *= s, style.header *= s, style.col_header *= s, style.row_gutter *= s;
    const Rect area{w * 0.05f, h * 0.1f, w * 0.9f, h * 0.8f};
    const StepLayout lay = layout_step(Arrangement::Grid, false, {{6, 9}, {6, 4}}, area, style);
    REQUIRE(lay.panels.size() == 2);
    return {{StepId::AttnScores, 0, lesson::CellPart::Result, lay.panels[0].rect, 6, 9},
            {StepId::AttnScores, 1, lesson::CellPart::Result, lay.panels[1].rect, 6, 4}};
}

// Where `at` is inside the matrix of `anchor`, as fractions of its width and height.
std::array<float, 2> fraction_in(const std::vector<PlacedMatrix>& placed, const lesson::CellAnchor& anchor, Pixel at) {
    const PlacedMatrix* m = placed_matrix_of(placed, anchor);
    REQUIRE(m != nullptr);
    return {(at[0] - m->rect.x) / m->rect.w, (at[1] - m->rect.y) / m->rect.h};
}

}  // namespace

TEST_CASE("a drawing anchored to a cell lands on the same cell at 1024x768, 1280x720 and 1920x1080") {
    const std::vector<PlacedMatrix> small = placed_at(1024, 768);
    // Press inside row 2, col 7 of the first panel, drag across to row 4, col 1.
    const PlacedMatrix& m = small[0];
    const Pixel from{m.rect.x + m.cell_w() * 7.3f, m.rect.y + m.cell_h() * 2.6f};
    const Pixel to{m.rect.x + m.cell_w() * 1.5f, m.rect.y + m.cell_h() * 4.5f};
    std::optional<lesson::Annotation> drawing = start_drawing(small, from, lesson::Annotation::Kind::Stroke, 2);
    REQUIRE(drawing.has_value());
    CHECK(drawing->cell == lesson::CellAnchor{StepId::AttnScores, 0, 2, 7, lesson::CellPart::Result});
    CHECK(drawing->points.front()[0] == doctest::Approx(0.3f).epsilon(1e-4));
    CHECK(drawing->points.front()[1] == doctest::Approx(0.6f).epsilon(1e-4));
    CHECK(extend_drawing(*drawing, small, to, 1.0f));
    REQUIRE(drawing->points.size() == 2);
    // The round trip: each point comes back to the pixel it was drawn at.
    for (size_t i = 0; i < 2; ++i) {
        const Pixel back = pixel_of(m, drawing->cell, drawing->points[i]);
        const Pixel drawn = i == 0 ? from : to;
        CHECK(back[0] == doctest::Approx(drawn[0]).epsilon(1e-4));
        CHECK(back[1] == doctest::Approx(drawn[1]).epsilon(1e-4));
    }
    // At the other sizes the panels move and change size, but the points stay at the same
    // place in the matrix (the same numbers), and the cell under the first point is the anchor.
    for (const auto& [w, h] : {std::pair<float, float>{1280, 720}, {1920, 1080}}) {
        CAPTURE(w);
        const std::vector<PlacedMatrix> other = placed_at(w, h);
        const PlacedMatrix* moved = placed_matrix_of(other, drawing->cell);
        REQUIRE(moved != nullptr);
        CHECK(moved->rect.w != doctest::Approx(m.rect.w));
        for (size_t i = 0; i < 2; ++i) {
            const auto before = fraction_in(small, drawing->cell, pixel_of(m, drawing->cell, drawing->points[i]));
            const auto after = fraction_in(other, drawing->cell, pixel_of(*moved, drawing->cell, drawing->points[i]));
            CHECK(after[0] == doctest::Approx(before[0]).epsilon(1e-4));
            CHECK(after[1] == doctest::Approx(before[1]).epsilon(1e-4));
        }
        const Pixel first = pixel_of(*moved, drawing->cell, drawing->points[0]);
        CHECK(cell_under(other, first) == std::optional<lesson::CellAnchor>(drawing->cell));
    }
    // The pen's line grows with the screen.
    CHECK(pen_width(1080) > pen_width(768));
    CHECK(pen_width(1080) / pen_width(720) == doctest::Approx(1.5f));
}

TEST_CASE("a press outside every matrix starts no drawing, and a matrix gone stops one") {
    const std::vector<PlacedMatrix> placed = placed_at(1024, 768);
    CHECK_FALSE(start_drawing(placed, {1.0f, 1.0f}, lesson::Annotation::Kind::Stroke, 0).has_value());
    const PlacedMatrix& second = placed[1];
    std::optional<lesson::Annotation> drawing =
        start_drawing(placed, {second.rect.x + 2.0f, second.rect.y + 2.0f}, lesson::Annotation::Kind::Arrow, 9);
    REQUIRE(drawing.has_value());
    CHECK(drawing->cell.panel == 1);
    CHECK(drawing->colour == 3);  // clamped to the four colours
    // An arrow keeps two points: its start and where the pointer is now.
    for (float x : {30.0f, 60.0f, 90.0f}) CHECK(extend_drawing(*drawing, placed, {second.rect.x + x, second.rect.y + x}, 1.0f));
    CHECK(drawing->points.size() == 2);
    CHECK_FALSE(extend_drawing(*drawing, {placed[0]}, {5.0f, 5.0f}, 1.0f));
}

TEST_CASE("undo takes the newest drawing away, clear takes them all, a one-point drawing is not kept") {
    std::vector<lesson::Annotation> drawings;
    lesson::Annotation a;
    a.points = {{0.5f, 0.5f}};
    CHECK_FALSE(keep_drawing(drawings, a));  // a click without a drag
    a.points.push_back({1.5f, 0.5f});
    lesson::Annotation b = a;
    b.colour = 1;
    CHECK(keep_drawing(drawings, a));
    CHECK(keep_drawing(drawings, b));
    CHECK(undo_drawing(drawings));
    REQUIRE(drawings.size() == 1);
    CHECK(drawings.front() == a);
    CHECK(keep_drawing(drawings, b));
    CHECK(clear_drawings(drawings));
    CHECK(drawings.empty());
    CHECK_FALSE(undo_drawing(drawings));
    CHECK_FALSE(clear_drawings(drawings));
}

TEST_CASE("B blanks the screen until any key, N shows the note only with a lesson, L and Shift+L point") {
    UiState ui;
    KeyPresses presses = {{GLFW_KEY_B, 0}, {GLFW_KEY_SPACE, 0}};
    presenter_keys(presses, ui, false);
    CHECK(ui.present.blank);
    REQUIRE(presses.size() == 1);  // Space is the playback's
    presses = {{GLFW_KEY_LEFT_SHIFT, 0}};
    presenter_keys(presses, ui, false);
    CHECK(ui.present.blank);  // a modifier alone does not bring the screen back
    presses = {{GLFW_KEY_RIGHT, 0}};
    presenter_keys(presses, ui, true);
    CHECK_FALSE(ui.present.blank);
    CHECK(presses.empty());  // the key that brought it back does nothing else
    presses = {{GLFW_KEY_N, 0}};
    presenter_keys(presses, ui, false);
    CHECK_FALSE(ui.present.note_shown);
    presenter_keys(presses, ui, true);
    CHECK(ui.present.note_shown);
    presses = {{GLFW_KEY_L, GLFW_MOD_SHIFT}};
    presenter_keys(presses, ui, false);
    CHECK(ui.present.pointer_on);
    follow_pointer(ui.present, false, 10, 10, 1.0);
    follow_pointer(ui.present, false, 20, 10, 1.1);
    CHECK(ui.present.trail.size() == 2);
    follow_pointer(ui.present, false, 20, 10, 2.0);  // still: the trail fades away
    CHECK(ui.present.trail.empty());
    ui.present.pointer_on = false;
    follow_pointer(ui.present, true, 30, 10, 2.1);  // held
    CHECK(ui.present.pointer_shown());
}

TEST_CASE("with the pen on, 1-4 pick its colour and Ctrl+Z undoes a drawing; with it off Ctrl+Z is left for slide edits") {
    UiState ui;
    lesson::Annotation a;
    a.points = {{0.5f, 0.5f}, {1.0f, 1.0f}};
    ui.lesson.marks.annotations = {a, a};
    KeyPresses presses = {{GLFW_KEY_Z, GLFW_MOD_CONTROL}, {GLFW_KEY_3, 0}};
    presenter_keys(presses, ui, true);
    CHECK(presses.size() == 2);  // pen off: neither is the presenter's
    CHECK(ui.lesson.marks.annotations.size() == 2);
    presses = {{GLFW_KEY_D, 0}, {GLFW_KEY_3, 0}, {GLFW_KEY_Z, GLFW_MOD_CONTROL}};
    presenter_keys(presses, ui, true);
    CHECK(ui.present.pen);
    CHECK(ui.present.pen_colour == 2);
    CHECK(presses.empty());
    CHECK(ui.lesson.marks.annotations.size() == 1);
    CHECK(ui.present.drawings_changed);
    presses = {{GLFW_KEY_C, 0}};
    presenter_keys(presses, ui, true);
    CHECK(ui.lesson.marks.annotations.empty());
    presses = {{GLFW_KEY_C, GLFW_MOD_CONTROL}};  // Ctrl+C is not C
    presenter_keys(presses, ui, true);
    CHECK(presses.size() == 1);
}

TEST_CASE("Page Down plays the slide's animation once, then moves on; the drawings are kept in the slide") {
    UiState ui;
    ui.playback.set_step_count(5);
    ui.playback.set_position(3, 1.0f);
    KeyPresses presses = {{GLFW_KEY_PAGE_DOWN, 0}};
    presenter_keys(presses, ui, true);
    CHECK(presses.empty());
    CHECK(ui.playback.step() == 3);
    CHECK(ui.playback.progress() == doctest::Approx(0.0f));  // from the start
    CHECK(ui.playback.animating());
    presses = {{GLFW_KEY_PAGE_DOWN, 0}};
    presenter_keys(presses, ui, true);
    CHECK(presses.size() == 1);  // the second press is the slide keys'
    presses = {{GLFW_KEY_PAGE_DOWN, 0}};
    presenter_keys(presses, ui, false);
    CHECK(presses.size() == 1);  // without a lesson the playback has it

    lesson::OpenedLesson opened;
    for (int n = 1; n <= 2; ++n) {
        lesson::OpenedSlide s;
        s.slide.number = n;
        s.slide.title = "slide " + std::to_string(n);
        s.slide.note = "say " + std::to_string(n);
        opened.slides.push_back(s);
        opened.lesson.slides.push_back(s.slide);
    }
    enter_slide(ui.present, opened, 0);
    CHECK_FALSE(ui.present.animation_played);
    CHECK(ui.present.note == "say 1");
    CHECK(ui.present.next_title == "slide 2");
    lesson::Annotation a;
    a.points = {{0.5f, 0.5f}, {1.0f, 1.0f}};
    ui.lesson.marks.annotations = {a};
    ui.present.drawings_changed = true;
    keep_slide_drawings(ui, &opened, 0);
    CHECK(opened.slides[0].slide.view.annotations.size() == 1);
    CHECK(opened.lesson.slides[0].view.annotations.size() == 1);  // what a save writes
    CHECK(opened.slides[1].slide.view.annotations.empty());
    CHECK_FALSE(ui.present.drawings_changed);
    enter_slide(ui.present, opened, 1);
    CHECK(ui.present.next_title.empty());
}

TEST_CASE("the keyboard help lists every presenter key") {
    std::ifstream in(std::string(ATTNVIZ_SOURCE_DIR) + "/app/gui/window/present_keys.cpp");
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    std::string listed;
    for (const Shortcut& s : kShortcuts) listed += std::string(s.keys) + " ";
    int keys = 0;
    for (size_t at = source.find("case GLFW_KEY_"); at != std::string::npos; at = source.find("case GLFW_KEY_", at + 1)) {
        const size_t start = at + std::string("case GLFW_KEY_").size();
        const std::string key = source.substr(start, source.find(':', start) - start);
        const std::string word = key == "PAGE_DOWN" ? "PageDown" : key == "RIGHT" ? "Right" : key;
        CAPTURE(word);
        CHECK(listed.find(word) != std::string::npos);
        ++keys;
    }
    CHECK(keys >= 10);
}

// ------------------------------------------------------------ drawn headlessly
namespace {

// True when some vertex of `list` has colour `colour`.
bool has_colour(const ImDrawList& list, ImU32 colour) {
    for (const ImDrawVert& v : list.VtxBuffer)
        if (v.col == colour) return true;
    return false;
}

}  // namespace

TEST_CASE("presenting draws the slide's place in the title strip, the note, the palette, the drawings and the blank screen") {
    testing::HeadlessImGui imgui(1280, 720, kPresentationTypeScale);
    AppState state = testing::state_for_model("tiny-lm", 0);
    state.ui.presentation = true;
    const int weights = state.results.trace->index_of(StepId::AttnWeights);
    REQUIRE(weights >= 0);
    state.ui.playback.set_position(weights, 1.0f);
    state.ui.canvas.enlarged_head = 1;
    PresentUi& present = state.ui.present;
    present.slides = 3;
    present.slide = 1;
    present.slide_title = "pronoun head";
    present.note = "point at it";
    present.next_title = "the end";
    present.note_shown = true;
    present.pen = true;
    lesson::Annotation loop;
    loop.colour = 0;
    loop.cell = lesson::CellAnchor{StepId::AttnWeights, 1, 2, 2, lesson::CellPart::Result};
    loop.points = {{0.5f, 0.5f}, {2.5f, 0.5f}, {2.5f, 2.5f}};
    state.ui.lesson.marks.annotations = {loop};
    imgui.frame(state);  // the first frame places the canvas's matrices
    imgui.frame(state);
    CHECK(testing::without_spaces(testing::drawn_text("##title_strip")).find("Slide2/3:pronounhead") != std::string::npos);
    const std::string note = testing::without_spaces(testing::drawn_text("##present_note"));
    CHECK(note.find("pointatit") != std::string::npos);
    CHECK(note.find("Next:theend") != std::string::npos);
    CHECK(testing::drawn_window("##pen_palette") != nullptr);
    REQUIRE_FALSE(state.ui.canvas.placed.empty());
    const ImGuiWindow* canvas = testing::drawn_window("Canvas");
    REQUIRE(canvas != nullptr);
    const auto& red = kPenRgb[0];
    CHECK(has_colour(*canvas->DrawList, pack_rgba(Rgb{red[0], red[1], red[2]})));
    // The blank screen covers everything in black; a drawing on a step not on screen is not drawn.
    present.blank = true;
    state.ui.lesson.marks.annotations.front().cell.step = StepId::AttnScores;
    imgui.frame(state);
    CHECK_FALSE(has_colour(*testing::drawn_window("Canvas")->DrawList, pack_rgba(Rgb{red[0], red[1], red[2]})));
    CHECK(has_colour(*ImGui::GetForegroundDrawList(), IM_COL32(0, 0, 0, 255)));
}
