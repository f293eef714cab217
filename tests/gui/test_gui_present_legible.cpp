// Presenting to a room (issue 32): the numbers in the cells of every shipped lesson's
// slides at 1024x768 are measured from the glyphs the canvas drew, the result is never
// drawn smaller than its operands, a title too wide wraps instead of being cut, and the
// laser pointer shows on a cell of its own colour.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>
#include <tuple>

#include "app/gui/gl/headless.h"
#include "app/gui/gl/offscreen.h"
#include "app/gui/state/compare_contrasts.h"
#include "app/gui/state/lesson_apply.h"
#include "app/options/compare_options.h"
#include "app/gui/views/panels/view_presenter.h"
#include "app/gui/views/panels/view_title_strip.h"
#include "tests/gui/headless_imgui.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;

namespace {

// One glyph the canvas drew: its character and its quad on screen.
struct Glyph {
    unsigned codepoint = 0;
    float x0 = 0, y0 = 0, x1 = 0, y1 = 0;
    float zero_advance = 0;  // the width of a '0' at the size it was drawn (the canvas fits numbers by it)
};

// Every glyph drawn into any window's list this frame (see text_of in headless_imgui.h).
std::vector<Glyph> drawn_glyphs() {
    std::map<std::pair<float, float>, std::pair<const ImFontGlyph*, const ImFont*>> glyph_at;
    for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
        for (const ImFontGlyph& g : font->Glyphs)
            if (g.Visible) glyph_at[{g.U0, g.V0}] = {&g, font};
    std::vector<Glyph> out;
    for (const ImGuiWindow* w : GImGui->Windows) {
        if (!w->Active) continue;
        const ImVector<ImDrawVert>& v = w->DrawList->VtxBuffer;
        for (int i = 0; i + 3 < v.Size; ++i) {
            const auto it = glyph_at.find({v[i].uv.x, v[i].uv.y});
            if (it == glyph_at.end()) continue;
            const ImFontGlyph& g = *it->second.first;
            const ImFontGlyph* zero = it->second.second->FindGlyph('0');
            const float scale = g.Y1 > g.Y0 ? (v[i + 2].pos.y - v[i].pos.y) / (g.Y1 - g.Y0) : 0.0f;
            out.push_back({g.Codepoint, v[i].pos.x, v[i].pos.y, v[i + 2].pos.x, v[i + 2].pos.y, zero ? zero->AdvanceX * scale : 0.0f});
            i += 3;
        }
    }
    return out;
}

bool is_digit(unsigned c) { return c >= '0' && c <= '9'; }
bool in_number(unsigned c) { return is_digit(c) || c == '-' || c == '.' || c == 'e' || c == '+'; }

// The numbers of one matrix of cells: their digits' height, and the largest digit height
// at which every drawn number would still fit its cell's width (less 2 pixels).
struct MatrixNumbers {
    int cells_with_numbers = 0;
    float digit_h = 1e9f;      // the smallest digit height drawn
    float width_bound = 1e9f;  // digit height the widest number allows
};

MatrixNumbers numbers_in(const PlacedMatrix& m, const std::vector<Glyph>& glyphs) {
    MatrixNumbers out;
    const float cw = m.cell_w(), ch = m.cell_h();
    for (int r = 0; r < m.rows; ++r)
        for (int c = 0; c < m.cols; ++c) {
            const float x = m.rect.x + c * cw, y = m.rect.y + r * ch;
            float digit = 0, width = 0;  // width: as many '0's as the number has characters
            for (const Glyph& g : glyphs) {
                const float gx = (g.x0 + g.x1) * 0.5f, gy = (g.y0 + g.y1) * 0.5f;
                if (!in_number(g.codepoint) || gx < x || gx > x + cw || gy < y || gy > y + ch) continue;
                width += g.zero_advance;
                if (is_digit(g.codepoint)) digit = std::max(digit, g.y1 - g.y0);
            }
            if (digit <= 0) continue;
            ++out.cells_with_numbers;
            out.digit_h = std::min(out.digit_h, digit);
            out.width_bound = std::min(out.width_bound, digit * (cw - 2.0f) / std::max(1.0f, width));
        }
    return out;
}

// The height of a digit of the body text (the explanation under the picture).
float body_digit_h(const Fonts& fonts) {
    const ImFontGlyph* zero = fonts.regular->FindGlyph('0');
    return zero ? zero->Y1 - zero->Y0 : fonts.regular->FontSize * 0.73f;
}

}  // namespace

TEST_CASE("presenting the shipped lessons at 1024x768: digits fill their cells, and the result is not smaller than an operand") {
    HeadlessImGui ui(1024, 768, kPresentationTypeScale);
    const float body = body_digit_h(ui.fonts);
    int measured = 0;
    for (const char* name : {"head-split", "scores-to-weights", "trained-heads", "llama-attention", "scratch-and-torch"}) {
        const Result<lesson::OpenedLesson> lesson =
            lesson::open_lesson(std::string(ATTNVIZ_SOURCE_DIR) + "/assets/lessons/" + name + ".en.json");
        REQUIRE_MESSAGE(lesson.ok(), lesson.error());
        for (size_t i = 0; i < lesson->slides.size(); ++i) {
            AppState state;
            const ComputeRequest request = apply_slide(state, lesson->slides[i]);
            accept_result(state, ComputeWorker::compute(request, 1), 0.0);
            state.ui.presentation = true;
            ui.frame(state, true);
            ui.frame(state, true);  // the second frame: the layout settled on the first
            const std::vector<Glyph> glyphs = drawn_glyphs();
            float result_cell = 0, operand_cell = 0, digit = 0, cell_h = 0;
            bool checked = false;
            for (const PlacedMatrix& m : state.ui.canvas.placed) {
                const float cell = std::min(m.cell_w(), m.cell_h());
                if (m.part != lesson::CellPart::Result) {
                    operand_cell = std::max(operand_cell, cell);
                    continue;
                }
                result_cell = std::max(result_cell, cell);
                const MatrixNumbers n = numbers_in(m, glyphs);
                if (n.cells_with_numbers == 0) continue;
                const float wanted = std::min({0.4f * m.cell_h(), 2.0f * body, n.width_bound});
                CAPTURE(name);
                CAPTURE(i + 1);
                CAPTURE(n.digit_h);
                CAPTURE(m.cell_h());
                CAPTURE(n.width_bound);
                CHECK(n.digit_h >= 0.85f * wanted);
                digit = n.digit_h, cell_h = m.cell_h(), checked = true;
            }
            if (checked) ++measured;
            std::printf("digits %-18s slide %zu: %4.1f px digits in %5.1f px cells (body %4.1f)%s\n", name, i + 1, digit,
                        cell_h, body, checked ? "" : "  no numbers drawn");
            if (operand_cell > 0) {
                CAPTURE(name);
                CAPTURE(i + 1);
                CHECK(result_cell >= operand_cell * 0.99f);
            }
        }
    }
    CHECK(measured >= 20);  // most slides show numbers; a rule that hid them all would pass above
}

namespace {

// Compare mode on `contrast` from the window's first screen (tiny-lm on its card's
// sentence, then the Compare menu), A and B computed, on the contrast's step.
void set_up_compare(AppState& state, const Contrast& contrast) {
    const Result<io::Problem> start = cli::problem_from_arguments({"--model=tiny-lm"});
    REQUIRE_MESSAGE(start.ok(), start.error());
    init_from_problem(state.session, start.value());
    accept_result(state, ComputeWorker::compute(start.value(), 0, 512), 0.0);
    const Result<ContrastSetup> setup = set_up_contrast(state, contrast);
    REQUIRE_MESSAGE(setup.ok(), setup.error());
    accept_result(state, ComputeWorker::compute(setup->a, 0, 512), 0.0);
    accept_b_result(state.compare, ComputeWorker::compute(setup->b, 0, 512), 0.0);
    state.ui.playback.set_position(state.results.trace->index_of(contrast.step), 1.0f);
}

// The cells of A − B's matrix `m` that have a number to show: all but the hatched ones (a
// key masked in both runs, or a score masked in either: no difference to read).
int difference_cells_with_a_value(const AppState& state, const PlacedMatrix& m) {
    const DisplayModel& model = *state.compare.difference_model;
    const int step = state.results.trace->index_of(m.step);
    const Panel& panel = model.steps[static_cast<size_t>(step)].panels[static_cast<size_t>(m.panel)];
    int cells = 0;
    for (const float v : panel.values) cells += std::isinf(v) ? 0 : 1;
    return cells;
}

// The characters drawn inside `r`, in drawing order.
std::string text_inside(const std::vector<Glyph>& glyphs, const Rect& r) {
    std::string out;
    for (const Glyph& g : glyphs)
        if (g.x0 >= r.x && g.x1 <= r.right() + 0.5f && g.y0 >= r.y && g.y1 <= r.bottom() + 0.5f && g.codepoint < 128)
            out += static_cast<char>(g.codepoint);
    return out;
}

// Every column's numbers against the legible-digits rule (issue 32 item 21: 40% of the cell's
// height, at most twice the body text, as far as the widest number allows). A − B prints a
// number in every cell that has a value and none over the hatching of a key masked in both;
// a column without numbers says so. Returns how many matrices printed numbers.
int check_compare_columns(const AppState& state, const Contrast& contrast, float body, const char* where) {
    const std::vector<Glyph> glyphs = drawn_glyphs();
    const std::vector<CanvasUi::Column>& columns = state.ui.canvas.columns;
    REQUIRE(columns.size() >= 2);  // A, B (and A − B where the shapes match)
    int with_numbers = 0;
    for (size_t k = 0; k < columns.size(); ++k) {
        CAPTURE(k);
        const std::string words = without_spaces(text_inside(glyphs, columns[k].rect));
        for (const PlacedMatrix& m : columns[k].placed) {
            if (m.part != lesson::CellPart::Result) continue;
            const MatrixNumbers n = numbers_in(m, glyphs);
            std::printf("%s %-12s column %zu: %4.1f px digits in %5.1f px cells%s\n", where, contrast.id, k,
                        n.cells_with_numbers ? n.digit_h : 0.0f, m.cell_h(), n.cells_with_numbers ? "" : "  (no numbers)");
            if (n.cells_with_numbers == 0) {
                CHECK(words.find("numbershidden") != std::string::npos);  // hidden numbers say so
                continue;
            }
            const float wanted = std::min({0.4f * m.cell_h(), 2.0f * body, n.width_bound});
            CAPTURE(n.digit_h);
            CAPTURE(m.cell_h());
            CAPTURE(n.width_bound);
            CHECK(n.digit_h >= 0.85f * wanted);
            if (k == 2) CHECK(n.cells_with_numbers == difference_cells_with_a_value(state, m));
            ++with_numbers;
        }
    }
    return with_numbers;
}

}  // namespace

TEST_CASE("compare mode in presentation at 1024x768: every contrast prints legible digits, and its captions stay in their columns") {
    HeadlessImGui ui(1024, 768, kPresentationTypeScale);
    const float body = body_digit_h(ui.fonts);
    int columns_with_numbers = 0;
    for (const Contrast& contrast : contrasts()) {
        CAPTURE(contrast.id);
        AppState state;
        set_up_compare(state, contrast);
        state.ui.presentation = true;
        ui.frame(state, true);
        ui.frame(state, true);
        const std::vector<Glyph> glyphs = drawn_glyphs();
        const std::vector<CanvasUi::Column>& columns = state.ui.canvas.columns;
        REQUIRE(columns.size() >= 2);
        const std::string id = contrast.id;
        for (size_t k = 0; k < columns.size(); ++k) {
            CAPTURE(k);
            const Rect& column = columns[k].rect;
            // Nothing drawn from inside a column runs past its right edge (before: "(B=1, H=2, L").
            for (const Glyph& g : glyphs)
                if (g.x0 >= column.x && g.x0 < column.right() && g.y0 >= column.y && g.y1 <= column.bottom())
                    CHECK(g.x1 <= column.right() + 0.5f);
            for (const PlacedMatrix& m : columns[k].placed) {
                if (m.part != lesson::CellPart::Result) continue;
                // Cells of 10 px (four heads of 9 x 9 in a third of the screen) printed nothing. Not
                // for E = 64 columns (stacked, fused) nor the heads contrast's B, whose grid is its point.
                if (id != "stacked" && id != "fused" && !(id == "heads" && k == 1)) CHECK(std::min(m.cell_w(), m.cell_h()) >= 20.0f);
                // A − B of the contrasts whose differences are the lesson ("-0.48" did not fit 24 px
                // cells, "6.9e-3" was skipped cell by cell with no note) prints its numbers.
                if (k == 2 && (id == "scale" || id == "trained" || id == "causal" || id == "bfloat16"))
                    CHECK(numbers_in(m, glyphs).cells_with_numbers > 0);
            }
        }
        columns_with_numbers += check_compare_columns(state, contrast, body, "present 1024x768");
    }
    CHECK(columns_with_numbers >= 12);  // before: none (every contrast said "numbers hidden"); then 11 without A − B
}

TEST_CASE("compare mode outside presentation (a 1280x720 snapshot, the 1920x1080 window): legible digits, nothing over hatching in A - B") {
    // snapshot --compare at 1280x720 printed 6 px digits in 39 px cells; at 1920x1080 A − B
    // printed "0.00" over the hatching of keys masked in both runs.
    for (const auto& [w, h, slide] : {std::tuple<float, float, bool>{1280, 720, true}, {1920, 1080, false}}) {
        HeadlessImGui ui(w, h);
        const float body = body_digit_h(ui.fonts);
        const std::string where = std::to_string(static_cast<int>(w)) + "x" + std::to_string(static_cast<int>(h)) + (slide ? " slide " : " window");
        int with_numbers = 0;
        for (const Contrast& contrast : contrasts()) {
            CAPTURE(contrast.id);
            CAPTURE(where);
            AppState state;
            set_up_compare(state, contrast);
            ui.frame(state, slide);
            ui.frame(state, slide);
            with_numbers += check_compare_columns(state, contrast, body, where.c_str());
        }
        CHECK(with_numbers >= 12);
    }
}

TEST_CASE("a slide title too wide for 1024 pixels wraps onto a second line instead of being cut") {
    HeadlessImGui ui(1024, 768, kPresentationTypeScale);
    lesson::Slide slide;
    slide.title = "A very long slide title that a teacher wrote: contiguous, then view, the one copy in memory";
    slide.setup.options = {{"num-heads", {lesson::OptionValue::Kind::Number, "2"}}};
    slide.view.step = StepId::Concat;
    const Result<io::Problem> problem = lesson::slide_problem(slide);
    REQUIRE(problem.ok());
    AppState state;
    accept_result(state, ComputeWorker::compute(apply_slide(state, {slide, problem.value()}), 1), 0.0);
    state.ui.presentation = true;
    state.ui.present.slides = 8;
    state.ui.present.slide = 6;
    state.ui.present.slide_title = slide.title;
    ui.frame(state, true);
    const std::string strip = drawn_text("##title_strip");
    CHECK(shows(strip, slide.title));  // every word drawn, the last one too
    const ImGuiWindow* window = drawn_window("##title_strip");
    REQUIRE(window != nullptr);
    for (const Glyph& g : drawn_glyphs())
        if (g.y1 <= window->Pos.y + window->Size.y) CHECK(g.x1 <= 1024.0f + 0.5f);  // nothing past the screen's edge
}

TEST_CASE("while presenting, the pen's palette sits in the title strip, over neither the picture nor the explanation") {
    HeadlessImGui ui(1024, 768, kPresentationTypeScale);
    const Result<lesson::OpenedLesson> lesson = lesson::open_lesson(std::string(ATTNVIZ_SOURCE_DIR) + "/assets/lessons/head-split.en.json");
    REQUIRE(lesson.ok());
    for (size_t i : {size_t{0}, size_t{2}}) {  // the storage strip's slide, and a step with a formula beside the title
        AppState state;
        accept_result(state, ComputeWorker::compute(apply_slide(state, lesson->slides[i]), 1), 0.0);
        state.ui.presentation = true;
        state.ui.present.pen = true;
        ui.frame(state, true);
        ui.frame(state, true);  // the palette sizes itself to its contents on its first frame
        const ImGuiWindow* palette = drawn_window("##pen_palette");
        const ImGuiWindow* strip = drawn_window("##title_strip");
        const ImGuiWindow* footer = drawn_window("##present_footer");  // the explanation: under or beside the picture
        REQUIRE(palette != nullptr);
        REQUIRE(strip != nullptr);
        REQUIRE(footer != nullptr);
        CAPTURE(i);
        CHECK(palette->Pos.y + palette->Size.y <= strip->Pos.y + strip->Size.y + 0.5f);
        CHECK(palette->Pos.x + palette->Size.x <= 1024.5f);
        CHECK(palette->Pos.y + palette->Size.y <= footer->Pos.y + 0.5f);
        for (const PlacedMatrix& m : state.ui.canvas.placed) CHECK(palette->Pos.y + palette->Size.y <= m.rect.y);
        // The title's glyphs stay left of the palette.
        for (const Glyph& g : drawn_glyphs())
            if (g.y1 <= strip->Pos.y + strip->Size.y && g.y0 >= strip->Pos.y && g.x0 < palette->Pos.x) CHECK(g.x1 <= palette->Pos.x + 0.5f);
    }
}

// Needs an X display: ctest runs it under xvfb-run ("gui laser", tests/gui/CMakeLists.txt).
TEST_CASE("the laser pointer shows on a dark-red cell in every colour it can take") {
    if (std::getenv("DISPLAY") == nullptr) {
        MESSAGE("no X display (ctest runs this under xvfb-run): skipped");
        return;
    }
    HeadlessGl gl;
    REQUIRE(gl.ok());
    OffscreenRenderer renderer(200, 200, 1.0f, false);
    REQUIRE(renderer.valid());
    const unsigned char cell[3] = {103, 0, 31};  // the diverging map's darkest red
    for (int colour = 0; colour < static_cast<int>(kPenRgb.size()); ++colour) {
        CAPTURE(colour);
        const float r = 12.0f;
        renderer.render([&](const Fonts&) {
            ImGui::GetBackgroundDrawList()->AddRectFilled(ImVec2(0, 0), ImVec2(200, 200), IM_COL32(cell[0], cell[1], cell[2], 255));
            draw_laser_dot(ImGui::GetForegroundDrawList(), ImVec2(100, 100), r, colour);
        });
        const std::vector<unsigned char> px = renderer.pixels();
        // Round the dot, just outside it: a ring that stands out from the cell.
        int contrast = 0;
        for (int a = 0; a < 16; ++a)
            for (const float at : {1.1f, 1.35f}) {
                const int x = 100 + static_cast<int>(r * at * std::cos(a * 0.3927f)), y = 100 + static_cast<int>(r * at * std::sin(a * 0.3927f));
                const unsigned char* p = &px[(static_cast<size_t>(y) * 200 + x) * 4];
                int diff = 0;
                for (int c = 0; c < 3; ++c) diff = std::max(diff, std::abs(int{p[c]} - int{cell[c]}));
                contrast = std::max(contrast, diff);
            }
        CHECK(contrast >= 150);
    }
}

TEST_CASE("compare mode in the 1024x768 window: the A/B switch and the inspector's A, B and A − B stay inside their panels") {
    // Issue 28 (a 1024 px window): the switch's "B" and the inspector's "A − B: -0.00344509"
    // ran past their panels' right edges.
    HeadlessImGui ui(1024, 768);
    const Contrast* bfloat16 = find_contrast("bfloat16");
    REQUIRE(bfloat16 != nullptr);
    AppState state;
    set_up_compare(state, *bfloat16);
    state.ui.canvas.pinned = CellRef{state.results.trace->index_of(StepId::AttnScores), 0, 4, 3};
    ui.frame(state, false);
    ui.frame(state, false);
    const std::string inspector = without_spaces(drawn_text(text::label("window.inspector")));
    const std::string controls = without_spaces(drawn_text(text::label("window.controls")));
    CHECK(inspector.find("A−B:-0.00") != std::string::npos);  // bfloat16's difference, whole
    CHECK(controls.find(without_spaces(text::tr("compare.switch.b"))) != std::string::npos);
    // Every glyph of the two panels (their child windows too) ends inside the panel.
    const std::vector<Glyph> glyphs = drawn_glyphs();
    for (const char* key : {"window.inspector", "window.controls"}) {
        const ImGuiWindow* panel = drawn_window(text::label(key));
        REQUIRE(panel != nullptr);
        const float right = panel->Pos.x + panel->Size.x;
        for (const Glyph& g : glyphs)
            if (g.y0 >= panel->Pos.y && g.y1 <= panel->Pos.y + panel->Size.y && g.x0 >= panel->Pos.x && g.x0 < right) {
                CAPTURE(key);
                CHECK(g.x1 <= right + 0.5f);
            }
    }
}
