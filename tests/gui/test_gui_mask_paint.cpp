// Painting a mask on the canvas (view_canvas_paint.h, painted_mask.h): a click on a
// weight cell in paint mode comes back as a session edit, the request carries the
// painted cells as a boolean mask_file, and the recomputed weights re-normalise; Shift
// paints a query row (a fully masked row, explained under the canvas for each fill),
// Ctrl a key column; "clear painted mask" removes them. Driven headless through
// ImGui's input like a user, then recomputed through the normal request path.
#include <doctest/doctest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <map>
#include <cmath>
#include <string>
#include <vector>

#include "app/gui/edits/painted_mask.h"
#include "app/gui/views/canvas/view_canvas_paint.h"
#include "app/text/languages.h"
#include "core/recipe.h"
#include "tests/gui/headless_imgui.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;
using namespace attn::test_configs;

namespace {

// Four tokens under the causal mask: the weights a test paints on.
const AttentionConfig kPaintable = causal(sized(4, 6, 2));

// A state on attn_weights with paint mode on, its session asking for the same seeded
// inputs the first trace used (no sentence words).
AppState painting_state(const AttentionConfig& c) {
    AppState state = state_for(c);
    state.session.tokens_from_sentence = false;
    state.settings.hint_seen = true;
    state.ui.playback.set_position(state.results.trace->index_of(StepId::AttnWeights), 1.0f);
    state.ui.canvas.paint_mode = true;
    return state;
}

void move_mouse(float x, float y) { ImGui::GetIO().MousePos = ImVec2(x, y); }

// The screen point over cell (row, col) of the first panel of the step on screen, found
// by moving the mouse over the canvas ((-1, -1) when no point hits it).
ImVec2 find_cell(HeadlessImGui& imgui, AppState& state, int row, int col) {
    imgui.frame(state);
    const ImGuiWindow* canvas = drawn_window("Canvas");
    if (!canvas) return ImVec2(-1, -1);
    const ImVec2 pos = canvas->Pos, size = canvas->Size;
    for (int gy = 1; gy < 60; ++gy)
        for (int gx = 1; gx < 60; ++gx) {
            const ImVec2 at(pos.x + size.x * static_cast<float>(gx) / 60.0f, pos.y + size.y * static_cast<float>(gy) / 60.0f);
            move_mouse(at.x, at.y);
            imgui.frame(state);
            const CellRef& h = state.ui.canvas.hovered;
            if (h.valid() && h.panel == 0 && h.row == row && h.col == col) return at;
        }
    return ImVec2(-1, -1);
}

// Press and release at the mouse with modifier keys held; the actions of both frames.
Actions click(HeadlessImGui& imgui, AppState& state, bool shift = false, bool ctrl = false) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyShift = shift;
    io.KeyCtrl = ctrl;
    io.MouseDown[0] = true;
    Actions out = imgui.frame(state);
    io.MouseDown[0] = false;
    out |= imgui.frame(state);
    io.KeyShift = io.KeyCtrl = false;
    return out;
}

// The canvas's session edit is already in the state (draw_frame applies the views'
// edits); recomputes through make_request and the worker's compute, as the window does
// for config_changed.
void apply_and_recompute(AppState& state, const Actions& actions) {
    REQUIRE(actions.config_changed);
    recompute_session(state);
}

float weight(const AppState& state, int h, int i, int j) {
    return state.results.trace->find(StepId::AttnWeights)->tensor.at({0, h, i, j});
}

// Where the drawn text `needle` starts in the canvas's draw list (glyph quads in drawing
// order, spaces skipped), or (-1, -1).
ImVec2 find_drawn_text(const std::string& needle) {
    const ImGuiWindow* canvas = drawn_window("Canvas");
    if (!canvas) return ImVec2(-1, -1);
    std::map<std::pair<float, float>, unsigned> glyph_at;
    for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
        for (const ImFontGlyph& g : font->Glyphs)
            if (g.Visible) glyph_at[{g.U0, g.V0}] = g.Codepoint;
    std::string text;
    std::vector<ImVec2> at;
    const ImVector<ImDrawVert>& v = canvas->DrawList->VtxBuffer;
    for (int i = 0; i + 3 < v.Size; ++i) {
        const auto it = glyph_at.find({v[i].uv.x, v[i].uv.y});
        if (it == glyph_at.end() || it->second > 127) continue;
        text += static_cast<char>(it->second);
        at.push_back(ImVec2((v[i].pos.x + v[i + 2].pos.x) * 0.5f, (v[i].pos.y + v[i + 2].pos.y) * 0.5f));
        i += 3;
    }
    const size_t found = text.find(without_spaces(needle));
    return found == std::string::npos ? ImVec2(-1, -1) : at[found];
}

}  // namespace

TEST_CASE("painting flips a cell, and a row or column is masked unless all of it already is") {
    PaintedMask m;
    CHECK(paint(m, 3, 4, 1, 2, PaintReach::Cell));
    CHECK(m.at(1, 2));
    CHECK(m.count() == 1);
    CHECK(paint(m, 3, 4, 1, 2, PaintReach::Cell));
    CHECK_FALSE(m.any());
    CHECK(paint(m, 3, 4, 0, 1, PaintReach::Cell));
    CHECK(paint(m, 3, 4, 0, 0, PaintReach::Row));  // one cell of the row was masked: all are now
    for (int j = 0; j < 4; ++j) CHECK(m.at(0, j));
    CHECK(paint(m, 3, 4, 0, 3, PaintReach::Row));  // all were: the row is cleared
    CHECK_FALSE(m.any());
    CHECK(paint(m, 3, 4, 2, 3, PaintReach::Column));
    for (int i = 0; i < 3; ++i) CHECK(m.at(i, 3));
    CHECK(m.count() == 3);
    CHECK_FALSE(paint(m, 3, 4, 0, 4, PaintReach::Cell));  // a column past S (bias_k, zero_attn)
    CHECK_FALSE(paint(m, 3, 4, 3, 0, PaintReach::Row));
    // A new size keeps the cells both sizes have.
    const PaintedMask smaller = fitted(m, 2, 4);
    CHECK(smaller.rows == 2);
    CHECK(smaller.count() == 2);
    CHECK(fitted(m, 3, 3).count() == 0);
}

TEST_CASE("the painted mask becomes the request's boolean mask file, alone or with a loaded one") {
    PaintedMask m;
    paint(m, 4, 4, 2, 0, PaintReach::Cell);
    SUBCASE("alone: an (L, S) boolean mask labelled as painted") {
        AttentionConfig c = kPaintable;
        merge_painted_mask(c, m);
        REQUIRE_FALSE(c.mask_file.empty());
        CHECK(c.mask_file.shape() == std::vector<int64_t>{4, 4});
        CHECK(c.mask_file_is_boolean);
        CHECK(c.mask_file_path == "painted in the window");
        CHECK(c.mask_file.at({2, 0}) == 1.0f);
        const std::vector<float> values = c.mask_file.to_vector();
        CHECK(std::count(values.begin(), values.end(), 1.0f) == 1);
        CHECK(validate(c).ok());
    }
    SUBCASE("with a boolean (S) file: their union, broadcast to (L, S)") {
        AttentionConfig c = kPaintable;
        c.mask_file = Tensor::from_values({4}, {"S"}, {0, 0, 0, 1});
        c.mask_file_is_boolean = true;
        c.mask_file_path = "pad.npy";
        merge_painted_mask(c, m);
        CHECK(c.mask_file.shape() == std::vector<int64_t>{4, 4});
        for (int i = 0; i < 4; ++i) {
            CAPTURE(i);
            CHECK(c.mask_file.at({i, 3}) == 1.0f);
            CHECK(c.mask_file.at({i, 0}) == (i == 2 ? 1.0f : 0.0f));
        }
        CHECK(c.mask_file_path == "pad.npy + painted in the window");
    }
    SUBCASE("with a float file painting is refused with a reason, and nothing is merged") {
        AttentionConfig c = kPaintable;
        c.mask_file = Tensor::from_values({4}, {"S"}, {0, 0, -1, 0});
        c.mask_file_path = "bias.npy";
        CHECK_FALSE(painting_blocked(c).empty());
        merge_painted_mask(c, m);
        CHECK(c.mask_file.shape() == std::vector<int64_t>{4});
        CHECK(c.mask_file_path == "bias.npy");
    }
    SUBCASE("a loaded file is not read again over the merged one") {
        AppState state = painting_state(kPaintable);
        state.session.sources.mask_path = "pad.npy";
        state.session.config.mask_file = Tensor::from_values({4}, {"S"}, {0, 0, 0, 1});
        state.session.config.mask_file_is_boolean = true;
        state.session.config.mask_file_path = "pad.npy";
        state.session.painted_mask = m;
        const std::optional<ComputeRequest> request = make_request(state.session);
        REQUIRE(request);
        CHECK(request->sources.mask_path.empty());
        CHECK(request->config.mask_file.at({2, 0}) == 1.0f);
        CHECK(request->config.mask_file.at({0, 3}) == 1.0f);
    }
}

TEST_CASE("a click on a weight cell in paint mode masks it and the row re-normalises") {
    HeadlessImGui imgui(1280, 800);
    AppState state = painting_state(kPaintable);
    REQUIRE(state.results.trace);
    // Query 2 sees keys 0..2 under the causal mask; masking key 0 leaves 1 and 2.
    const float w0 = weight(state, 0, 2, 0), w1 = weight(state, 0, 2, 1), w2 = weight(state, 0, 2, 2);
    REQUIRE(w0 > 0.0f);
    const ImVec2 at = find_cell(imgui, state, 2, 0);
    REQUIRE(at.x >= 0.0f);
    const CellRef pinned_before = state.ui.canvas.pinned;
    Actions actions = click(imgui, state);
    CHECK(state.ui.canvas.pinned == pinned_before);  // painting pins nothing
    CHECK(state.session.painted_mask.at(2, 0));
    CHECK(state.session.painted_mask.count() == 1);
    apply_and_recompute(state, actions);
    const AttentionConfig& used = state.results.trace->config;
    CHECK(used.mask_file_path == "painted in the window");
    CHECK(state.results.trace->steps[static_cast<size_t>(state.ui.playback.step())].id == StepId::AttnWeights);
    for (int h = 0; h < 2; ++h) {
        CAPTURE(h);
        CHECK(weight(state, h, 2, 0) == 0.0f);
        float sum = 0;
        for (int j = 0; j < 4; ++j) sum += weight(state, h, 2, j);
        CHECK(sum == doctest::Approx(1.0f).epsilon(1e-6));
    }
    // The remaining keys keep their proportions: w_j / (1 - w_0).
    CHECK(weight(state, 0, 2, 1) == doctest::Approx(w1 / (1.0f - w0)).epsilon(1e-5));
    CHECK(weight(state, 0, 2, 2) == doctest::Approx(w2 / (1.0f - w0)).epsilon(1e-5));
    // Other rows are untouched.
    CHECK(weight(state, 0, 3, 0) > 0.0f);

    SUBCASE("Ctrl+click paints the key column for every query") {
        const ImVec2 col = find_cell(imgui, state, 3, 1);
        REQUIRE(col.x >= 0.0f);
        Actions more = click(imgui, state, false, true);
        for (int i = 0; i < 4; ++i) CHECK(state.session.painted_mask.at(i, 1));
        apply_and_recompute(state, more);
        for (int i = 1; i < 4; ++i) CHECK(weight(state, 1, i, 1) == 0.0f);
    }
    SUBCASE("the clear button removes every painted cell") {
        imgui.frame(state);
        const ImVec2 button = find_drawn_text(text::trf("canvas.paint.clear", {{"cells", 1}}));
        REQUIRE(button.x >= 0.0f);
        move_mouse(button.x, button.y);
        imgui.frame(state);
        Actions cleared = click(imgui, state);
        CHECK_FALSE(state.session.painted_mask.any());
        apply_and_recompute(state, cleared);
        CHECK(state.results.trace->config.mask_file.empty());
        CHECK(weight(state, 0, 2, 0) == doctest::Approx(w0).epsilon(1e-6));
    }
}

TEST_CASE("Shift+click masks a whole query row, and the canvas says what the fill makes of it") {
    HeadlessImGui imgui(1280, 800);
    SUBCASE("-inf: zeros here, NaN in PyTorch") {
        AppState state = painting_state(kPaintable);
        REQUIRE(find_cell(imgui, state, 1, 0).x >= 0.0f);
        Actions actions = click(imgui, state, true);
        for (int j = 0; j < 4; ++j) CHECK(state.session.painted_mask.at(1, j));
        apply_and_recompute(state, actions);
        CHECK(state.results.trace->count_fully_masked_rows() == 2);  // query 1 in both heads
        CHECK(state.results.trace->count_fully_masked_queries() == 1);  // one query row, as the notes say
        for (int j = 0; j < 4; ++j) CHECK(weight(state, 0, 1, j) == 0.0f);
        move_mouse(-FLT_MAX, -FLT_MAX);
        imgui.frame(state);
        CHECK(shows(drawn_text("Canvas"), text::trf("canvas.note.fully_masked_zero", {{"rows", 2}, {"fill", "-inf"}})));
    }
    SUBCASE("-1e20: uniform 1/S, as in PyTorch") {
        AppState state = painting_state(with(kPaintable, &AttentionConfig::mask_fill, MaskFill{MaskFillKind::Negative1e20, 0}));
        REQUIRE(find_cell(imgui, state, 1, 0).x >= 0.0f);
        Actions actions = click(imgui, state, true);
        apply_and_recompute(state, actions);
        for (int j = 0; j < 4; ++j) CHECK(weight(state, 0, 1, j) == doctest::Approx(0.25f));
        move_mouse(-FLT_MAX, -FLT_MAX);
        imgui.frame(state);
        CHECK(shows(drawn_text("Canvas"),
                    text::trf("canvas.note.fully_masked_uniform", {{"rows", 2}, {"fill", "-1e20"}, {"keys", 4}, {"weight", "0.25"}})));
    }
}

TEST_CASE("without paint mode a click pins the cell and paints nothing; the bar sits only on score and weight steps") {
    HeadlessImGui imgui(1280, 800);
    AppState state = painting_state(kPaintable);
    state.ui.canvas.paint_mode = false;
    REQUIRE(find_cell(imgui, state, 2, 0).x >= 0.0f);
    const Actions actions = click(imgui, state);
    CHECK_FALSE(actions.config_changed);
    CHECK_FALSE(state.session.painted_mask.any());
    CHECK(state.ui.canvas.pinned.row == 2);
    CHECK(shows(drawn_text("Canvas"), text::tr("canvas.paint.toggle")));
    state.ui.playback.set_position(state.results.trace->index_of(StepId::Q), 1.0f);
    imgui.frame(state);
    CHECK_FALSE(shows(drawn_text("Canvas"), text::tr("canvas.paint.toggle")));
    CHECK(paint_reach(true, false, false) == PaintReach::Row);
    CHECK(paint_reach(false, true, false) == PaintReach::Column);
    CHECK(paint_reach(false, false, true) == PaintReach::Column);
    CHECK(paint_reach(false, false, false) == PaintReach::Cell);
}

TEST_CASE("the mask file's label: a painted mask and a recipe's key pattern are catalogue words, a path stays as it is") {
    using attn::gui::file_and_painted_label;
    using attn::gui::mask_file_label;
    using attn::gui::painted_mask_label;
    AttentionConfig c;
    c.mask_file_path = "pad.npy";
    CHECK(mask_file_label(c) == Message::plain("pad.npy"));
    // The manifest keeps the English; the window re-reads it as the message it came from.
    c.mask_file_path = english(painted_mask_label());
    CHECK(c.mask_file_path == "painted in the window");
    CHECK(mask_file_label(c) == painted_mask_label());
    c.mask_file_path = english(file_and_painted_label("pad.npy"));
    CHECK(c.mask_file_path == "pad.npy + painted in the window");
    CHECK(mask_file_label(c) == file_and_painted_label("pad.npy"));
    c.mask_file_path = english(file_and_painted_label(""));
    CHECK(c.mask_file_path == "mask file + painted in the window");
    CHECK(mask_file_label(c) == file_and_painted_label(""));
    AttentionConfig recipe = find_recipe("interview-mha")->config;
    fit_recipe_masks(recipe);
    CHECK(recipe.mask_file_path == "(interview-mha key pattern)");
    CHECK(mask_file_label(recipe).id == "mask.source.recipe_pattern");
}
