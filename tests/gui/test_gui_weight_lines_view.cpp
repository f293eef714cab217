// The lines view in the (headless) window: View > Weights as reaches the canvas, pointing
// at a token prints its weights, a click pins it and a second click lets it go.
#include <doctest/doctest.h>

#include <cctype>
#include <cfloat>
#include <string>
#include <vector>

#include "app/text/languages.h"
#include "tests/gui/headless_imgui.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;
using namespace attn::test_configs;

namespace {

void move_mouse(float x, float y) { ImGui::GetIO().MousePos = ImVec2(x, y); }

void click(HeadlessImGui& imgui, AppState& state, bool ctrl = false) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyCtrl = ctrl;
    io.MouseDown[0] = true;
    imgui.frame(state);
    io.MouseDown[0] = false;
    imgui.frame(state);
    io.KeyCtrl = false;
}

// Moves the mouse over the canvas until it rests on a token of the lines; false when no
// point of a 64 x 32 grid does.
bool hover_some_token(HeadlessImGui& imgui, AppState& state) {
    const ImGuiWindow* canvas = drawn_window("Canvas");
    REQUIRE(canvas);
    for (int gy = 1; gy < 32; ++gy)
        for (int gx = 1; gx < 64; ++gx) {
            move_mouse(canvas->Pos.x + canvas->Size.x * static_cast<float>(gx) / 64.0f,
                       canvas->Pos.y + canvas->Size.y * static_cast<float>(gy) / 32.0f);
            imgui.frame(state);
            if (state.ui.canvas.lines_hovered.valid()) return true;
        }
    return false;
}

// How many weights as the lines print them ("0.25", "1.00") `text` holds.
int weights_shown(const std::string& text) {
    int n = 0;
    for (size_t i = 0; i + 3 < text.size(); ++i)
        if ((text[i] == '0' || text[i] == '1') && text[i + 1] == '.' && std::isdigit(static_cast<unsigned char>(text[i + 2])) &&
            std::isdigit(static_cast<unsigned char>(text[i + 3])))
            ++n;
    return n;
}

}  // namespace

TEST_CASE("lines view: a token is pointed at, its weights printed, pinned by a click and let go by another") {
    HeadlessImGui imgui(1280, 800);
    AppState state = state_for(causal(sized(5, 8, 2)));
    REQUIRE(state.results.trace);
    state.settings.hint_seen = true;
    state.settings.show_values = false;  // no numbers in heatmap cells: any weight printed is the lines'
    state.ui.playback.set_position(state.results.trace->index_of(StepId::AttnWeights), 1.0f);
    for (const std::string as : {"lines", "both"}) {
        CAPTURE(as);
        state.settings.weights_as = as;
        state.ui.canvas.lines_pinned = TokenRef{};
        move_mouse(-FLT_MAX, -FLT_MAX);
        imgui.frame(state);
        const std::string idle = drawn_text("Canvas");
        CHECK(shows(idle, text::tr("lines.queries")));
        CHECK(shows(idle, text::tr("lines.keys")));
        // With "both" the heatmap's readouts print numbers too: the lines' come on top.
        const int idle_weights = weights_shown(idle);
        if (as == "lines") CHECK(idle_weights == 0);

        REQUIRE(hover_some_token(imgui, state));
        const TokenRef token = state.ui.canvas.lines_hovered;
        CHECK(weights_shown(drawn_text("Canvas")) > idle_weights);
        click(imgui, state);
        CHECK(state.ui.canvas.lines_pinned == token);
        move_mouse(-FLT_MAX, -FLT_MAX);
        imgui.frame(state);
        CHECK_FALSE(state.ui.canvas.lines_hovered.valid());
        CHECK(weights_shown(drawn_text("Canvas")) > idle_weights);  // the pinned token keeps its numbers

        REQUIRE(hover_some_token(imgui, state));
        CHECK(state.ui.canvas.lines_hovered == token);  // the same grid finds the same token first
        click(imgui, state);
        CHECK_FALSE(state.ui.canvas.lines_pinned.valid());
    }
}

TEST_CASE("lines view: steps without weights keep their heatmap") {
    HeadlessImGui imgui(1280, 800);
    AppState state = state_for(sized(4, 8, 2));
    REQUIRE(state.results.trace);
    state.settings.hint_seen = true;
    state.settings.weights_as = "lines";
    state.ui.playback.set_position(state.results.trace->index_of(StepId::AttnScores), 1.0f);
    imgui.frame(state);
    CHECK_FALSE(shows(drawn_text("Canvas"), text::tr("lines.queries")));
    state.ui.playback.set_position(state.results.trace->index_of(StepId::AttnWeights), 1.0f);
    imgui.frame(state);
    CHECK(shows(drawn_text("Canvas"), text::tr("lines.queries")));
}

TEST_CASE("lines view: Ctrl+click selects queries and each key shows the weight it receives from them, summed") {
    HeadlessImGui imgui(1280, 800);
    AppState state = state_for(sized(5, 8, 2));
    REQUIRE(state.results.trace);
    state.settings.hint_seen = true;
    state.settings.weights_as = "lines";
    state.ui.playback.set_position(state.results.trace->index_of(StepId::AttnWeights), 1.0f);
    move_mouse(-FLT_MAX, -FLT_MAX);
    imgui.frame(state);
    REQUIRE(weights_shown(drawn_text("Canvas")) == 0);
    // The grid meets a query before any key (the queries are the left column).
    REQUIRE(hover_some_token(imgui, state));
    REQUIRE(state.ui.canvas.lines_hovered.side == TokenRef::Side::Query);
    const int query = state.ui.canvas.lines_hovered.index;
    click(imgui, state, /*ctrl=*/true);
    CHECK(state.ui.canvas.lines_selected == std::vector<int>{query});
    CHECK_FALSE(state.ui.canvas.lines_pinned.valid());
    state.ui.canvas.lines_selected.push_back((query + 1) % 5);
    move_mouse(-FLT_MAX, -FLT_MAX);
    imgui.frame(state);
    const std::string drawn = drawn_text("Canvas");
    CHECK(shows(drawn, text::trf("lines.selection", {{"count", 2}})));
    CHECK(weights_shown(drawn) >= 2);  // a sum per head beside at least one key
    REQUIRE(hover_some_token(imgui, state));
    click(imgui, state, /*ctrl=*/true);  // the first query again: out of the selection
    CHECK(state.ui.canvas.lines_selected == std::vector<int>{(query + 1) % 5});
    click(imgui, state);  // a plain click clears the selection (and pins)
    CHECK(state.ui.canvas.lines_selected.empty());
}
