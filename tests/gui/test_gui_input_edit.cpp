// Typing into a pinned cell of the `input` step ("a cell of input can be
// edited"): the value goes in, everything downstream is recomputed, the row labels stay,
// and a refused text is named next to the field without changing anything.
#include <doctest/doctest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>
#include <string>

#include "app/gui/display/format.h"
#include "app/gui/views/frame.h"
#include "app/gui/state/input_edit.h"
#include "app/gui/state/recipe_choice.h"
#include "app/gui/views/controls/view_input_editor.h"
#include "app/text/languages.h"
#include "headless_imgui.h"
#include "tests/catalogue_words.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;
using attn::testing::opening;

namespace {

constexpr const char* kWindow = "input editor under test";

void compute_into(AppState& state) {
    std::optional<ComputeRequest> request = make_request(state.session);
    REQUIRE_MESSAGE(request.has_value(), english(state.session.config_message));
    ComputeResult result = ComputeWorker::compute(*request, 1);
    REQUIRE_MESSAGE(result.error.empty(), english(result.error));
    accept_result(state, std::move(result), 0.0);
}

// One frame of the editor alone; its edits applied as draw_frame applies them.
bool frame(AppState& state) {
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImVec2(500, 400));
    ImGui::Begin(kWindow, nullptr, ImGuiWindowFlags_NoTitleBar);
    Actions out = draw_input_editor(state.session, state.results, state.ui, false);
    ImGui::End();
    ImGui::Render();
    const bool changed = out.config_changed;
    apply_edits(state, out);
    return changed;
}

// Focuses the number field, replaces its text by `typed` and presses Enter, as a user does.
bool type_value(AppState& state, const std::string& typed) {
    // Half a second of frames: the click below must not count as a double click on the
    // previous one (which selects a word instead of placing the cursor).
    for (int i = 0; i < 40; ++i) frame(state);
    ImGuiWindow* window = ImGui::FindWindowByName(kWindow);
    REQUIRE(window != nullptr);
    // Where the field is: focus it for keyboard navigation and read the rectangle ImGui
    // keeps for it; then click its middle, as the mouse would.
    const ImGuiID id = window->GetID("##input_edit");
    ImGuiContext& g = *GImGui;
    ImGui::FocusWindow(window);
    ImGui::SetFocusID(id, window);
    g.NavIdIsAlive = false;
    frame(state);
    REQUIRE(g.NavId == id);
    const ImRect rect = ImGui::WindowRectRelToAbs(window, window->NavRectRel[g.NavLayer]);
    ImGuiIO& io = ImGui::GetIO();
    // The mouse moves there (after keys, ImGui ignores a mouse that has not moved).
    io.MousePos = ImVec2(rect.Min.x + 1.0f, rect.Min.y + 1.0f);
    bool changed = frame(state);
    io.MousePos = rect.GetCenter();
    changed |= frame(state);
    io.MouseDown[0] = true;
    changed |= frame(state);
    io.MouseDown[0] = false;
    changed |= frame(state);
    io.KeyMap[ImGuiKey_A] = 'A';
    io.KeyCtrl = true;
    io.KeysDown['A'] = true;
    changed |= frame(state);
    io.KeysDown['A'] = false;
    io.KeyCtrl = false;
    changed |= frame(state);
    io.AddInputCharactersUTF8(typed.c_str());
    changed |= frame(state);
    io.KeyMap[ImGuiKey_Enter] = 257;
    io.KeysDown[257] = true;
    changed |= frame(state);
    io.KeysDown[257] = false;
    changed |= frame(state);
    return changed;
}

// Pins cell (row, col) of the input step, as a click on it does.
void pin_input_cell(AppState& state, int row, int col) {
    const int step = state.results.trace->index_of(StepId::Input);
    REQUIRE(step >= 0);
    state.ui.canvas.pinned = CellRef{step, 0, row, col, CellRef::Part::Result};
}

float input_at(const AppState& state, int row, int col) {
    return state.results.trace->find(StepId::Input)->tensor.at({0, row, col});
}

}  // namespace

TEST_CASE("typing a number into a pinned input cell recomputes everything after it") {
    HeadlessImGui imgui(800, 600);
    AppState state;  // the seeded random weights on the box's sentence
    state.session.config.batch = 2;
    compute_into(state);
    const std::vector<std::string> words = state.results.query_tokens;
    const Tensor before_q = state.results.trace->find(StepId::Q)->tensor;
    const Tensor before_input = state.results.trace->find(StepId::Input)->tensor;
    pin_input_cell(state, 1, 2);
    frame(state);
    REQUIRE(shows(drawn_text(kWindow), opening("inspector.edit_input")));

    CHECK(type_value(state, "  3.5 "));
    REQUIRE(state.session.sources.query_values.size() > 0);
    compute_into(state);
    CHECK(input_at(state, 1, 2) == 3.5f);
    // Only the item on screen (0) changes; item 1 keeps its own number.
    const float item1_before = before_input.at({1, 1, 2});
    REQUIRE(item1_before != 3.5f);
    CHECK(state.results.trace->find(StepId::Input)->tensor.at({1, 1, 2}) == item1_before);
    CHECK(state.results.trace->find(StepId::Input)->tensor.at({1, 0, 0}) == before_input.at({1, 0, 0}));
    CHECK(state.results.query_tokens == words);  // the words still label the rows
    const Tensor& q = state.results.trace->find(StepId::Q)->tensor;
    CHECK(q.at({0, 0, 0}) == before_q.at({0, 0, 0}));  // row 0 did not read the cell
    CHECK(q.at({0, 1, 0}) != before_q.at({0, 1, 0}));  // row 1 did

    CHECK(state.ui.canvas.pinned.valid());  // still pinned: the next value can be typed at once
    // Typing a sentence afterwards takes the words again.
    state.session.sentence = "one two three";
    REQUIRE(follow_sentence(state.session));
    CHECK(state.session.sources.query_values.size() == 0);
    compute_into(state);
    CHECK(state.results.trace->config.seq_len == 3);
}

TEST_CASE("text that is not a finite number is refused next to the field, nothing changes") {
    for (const char* bad : {"abc", "1.5x", "nan", "inf", "-inf", "1e999"}) {
        CAPTURE(std::string(bad));
        HeadlessImGui imgui(800, 600);
        AppState state;
        compute_into(state);
        pin_input_cell(state, 0, 1);
        CHECK_FALSE(type_value(state, bad));
        CHECK(state.session.sources.query_values.size() == 0);
        CHECK(shows(drawn_text(kWindow), english(state.ui.input_edit.message)));
        CHECK_FALSE(state.ui.input_edit.message.empty());
    }
}

TEST_CASE("a trained model's input cells are not offered for typing") {
    AppState state;
    Session& session = state.session;
    session.config.seq_len = 3;
    compute_into(state);
    CHECK(input_cells_editable(session, *state.results.trace));
    CHECK_FALSE(edit_input_cell(session, *state.results.trace, 0, 0, 0, std::nanf("")).empty());
    CHECK_FALSE(edit_input_cell(session, *state.results.trace, 0, 9, 0, 1.0f).empty());  // no such row
    CHECK(session.sources.query_values.size() == 0);
}

TEST_CASE("typing into a recipe's example input keeps the article's words on the rows") {
    HeadlessImGui imgui(800, 600);
    AppState state;
    REQUIRE(choose_recipe(state.session, "scratch-mha").empty());
    compute_into(state);
    const std::vector<std::string> words = state.results.query_tokens;
    REQUIRE(words.front() == "Your");
    pin_input_cell(state, 1, 1);
    CHECK(type_value(state, "2.5"));
    compute_into(state);
    CHECK(input_at(state, 1, 1) == 2.5f);
    CHECK(input_at(state, 0, 0) == doctest::Approx(0.43f));  // the other rows are the article's
    CHECK(state.results.query_tokens == words);
}

TEST_CASE("typing into batch item 1 of interview-mha changes that item only") {
    AppState state;
    REQUIRE(choose_recipe(state.session, "interview-mha").empty());
    compute_into(state);
    const Tensor before = state.results.trace->find(StepId::Input)->tensor;  // (B, L, d_in)
    REQUIRE(before.dim(0) >= 3);
    REQUIRE(before.at({0, 0, 0}) != before.at({2, 0, 0}));  // the items really differ
    Session& session = state.session;
    REQUIRE(edit_input_cell(session, *state.results.trace, 1, 0, 0, 9.0f).empty());
    compute_into(state);
    const Tensor& after = state.results.trace->find(StepId::Input)->tensor;
    CHECK(after.at({1, 0, 0}) == 9.0f);
    for (int64_t b : {int64_t{0}, int64_t{2}})
        for (int64_t i = 0; i < before.dim(1); ++i)
            for (int64_t d = 0; d < before.dim(2); ++d) {
                CAPTURE(b);
                CAPTURE(i);
                CHECK(after.at({b, i, d}) == before.at({b, i, d}));
            }
}

// Issue 28 item 23: "5" typed for one batch item stayed in the field beside another item's number.
TEST_CASE("the number field shows the item on screen, not the text typed for another item") {
    HeadlessImGui imgui(800, 600);
    AppState state;
    state.session.config.batch = 2;
    compute_into(state);
    pin_input_cell(state, 1, 2);
    CHECK(type_value(state, "5"));
    compute_into(state);
    REQUIRE(input_at(state, 1, 2) == 5.0f);
    CHECK(state.ui.input_edit.text == "5");
    state.session.batch_item = 1;  // the item switch above the canvas
    compute_into(state);
    REQUIRE(state.results.model->batch_item == 1);
    frame(state);
    const float item1 = state.results.trace->find(StepId::Input)->tensor.at({1, 1, 2});
    REQUIRE(item1 != 5.0f);
    CHECK(state.ui.input_edit.text == format_value(item1));
    CHECK(shows(drawn_text(kWindow), format_value(item1)));
}
