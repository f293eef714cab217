// View > Overview in the (headless) window: the grid replaces the canvas's picture on every
// step, a click opens its layer and head, Ctrl+click adds the heads' mean (to the lines view
// too), and an overview opened without thumbnails asks for them.
#include <doctest/doctest.h>

#include <cfloat>
#include <string>

#include "app/text/languages.h"
#include "tests/gui/headless_imgui.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;

namespace {

// tiny-lm's layer `layer` on its card's sentence, computed with View > Overview open.
AppState tiny_lm_overview(int layer) {
    Result<std::shared_ptr<const Model>> model = io::load_model("tiny-lm");
    REQUIRE_MESSAGE(model.ok(), model.error());
    ComputeRequest request;
    request.model = model.value();
    request.model_layer = layer;
    request.model_sentence = model.value()->spec.example;
    request.max_extent = 256;
    request.overview = true;
    const ComputeResult computed = ComputeWorker::compute(request, 1);
    REQUIRE_MESSAGE(computed.error.empty(), computed.error);
    AppState state;
    state.session.model = model.value();
    state.session.model_layer = layer;
    state.settings.hint_seen = true;
    accept_result(state, computed, 0.0);
    state.ui.canvas.overview = true;
    return state;
}

void click(HeadlessImGui& imgui, AppState& state, Actions& actions, bool ctrl = false) {
    ImGuiIO& io = ImGui::GetIO();
    io.KeyCtrl = ctrl;
    io.MouseDown[0] = true;
    actions = imgui.frame(state);
    io.MouseDown[0] = false;
    imgui.frame(state);
    io.KeyCtrl = false;
}

// Moves the mouse over the canvas until it rests on overview cell `cell`; false when no
// point of a 64 x 48 grid does.
bool hover_cell(HeadlessImGui& imgui, AppState& state, int cell) {
    const ImGuiWindow* canvas = drawn_window("Canvas");
    REQUIRE(canvas);
    for (int gy = 1; gy < 48; ++gy)
        for (int gx = 1; gx < 64; ++gx) {
            ImGui::GetIO().MousePos = ImVec2(canvas->Pos.x + canvas->Size.x * static_cast<float>(gx) / 64.0f,
                                             canvas->Pos.y + canvas->Size.y * static_cast<float>(gy) / 48.0f);
            imgui.frame(state);
            if (state.ui.canvas.overview_hovered == cell) return true;
        }
    return false;
}

}  // namespace

TEST_CASE("overview view: every layer and head replaces the picture on every step") {
    HeadlessImGui imgui(1280, 800);
    AppState state = tiny_lm_overview(0);
    REQUIRE(state.results.overview);
    const std::string last = text::trf("overview.thumb.title", {{"layer", 1}, {"head", 3}});
    for (int step = 0; step < static_cast<int>(state.results.trace->steps.size()); ++step) {
        CAPTURE(state.results.trace->steps[static_cast<size_t>(step)].name());
        state.ui.playback.set_position(step, 1.0f);
        imgui.frame(state);
        CHECK(shows(drawn_text("Canvas"), last));
    }
    state.ui.canvas.overview = false;
    imgui.frame(state);
    CHECK_FALSE(shows(drawn_text("Canvas"), last));
}

TEST_CASE("overview view: a click opens the thumbnail's layer and head, Ctrl+click adds the heads' mean") {
    HeadlessImGui imgui(1280, 800);
    AppState state = tiny_lm_overview(0);
    const int weights = state.results.trace->index_of(StepId::AttnWeights);
    state.ui.playback.set_position(weights, 1.0f);
    state.settings.weights_as = "lines";
    Actions actions = imgui.frame(state);
    // Cells are the grid's thumbnails, layer-major: 1 and 6 are layer 0 head 1, layer 1 head 2.
    REQUIRE(hover_cell(imgui, state, 1));
    click(imgui, state, actions, /*ctrl=*/true);
    REQUIRE(hover_cell(imgui, state, 2));
    click(imgui, state, actions, /*ctrl=*/true);
    CHECK(state.ui.canvas.overview_selected == std::vector<HeadRef>{{0, 1}, {0, 2}});
    CHECK(state.ui.canvas.overview);  // Ctrl+click keeps the overview
    imgui.frame(state);
    CHECK(shows(drawn_text("Canvas"), text::trf("overview.mean.title", {{"count", 2}})));

    REQUIRE(hover_cell(imgui, state, 6));
    click(imgui, state, actions);
    CHECK_FALSE(state.ui.canvas.overview);
    CHECK(state.ui.canvas.enlarged_head == 2);
    CHECK(state.session.model_layer == 1);  // the session edit, applied after the canvas's slot
    CHECK(actions.config_changed);
    CHECK(state.ui.playback.step() == weights);  // the same step

    // Back on layer 0 with every head: the lines view draws the selected heads and their mean.
    state.ui.canvas.enlarged_head = -1;
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    imgui.frame(state);
    CHECK(shows(drawn_text("Canvas"), text::tr("overview.lines_mean")));
}

TEST_CASE("overview view: opened on a trace without thumbnails, it says so and asks for them") {
    HeadlessImGui imgui(1280, 800);
    AppState state = state_for_model("tiny-lm", 0);
    state.settings.hint_seen = true;
    REQUIRE_FALSE(state.results.overview);
    state.ui.canvas.overview = true;
    const Actions actions = imgui.frame(state);
    CHECK(actions.config_changed);
    CHECK(shows(drawn_text("Canvas"), text::tr("overview.computing")));
}

namespace {

// The text drawn by the tooltip window open in the last frame ("" when none).
std::string tooltip_text() {
    ImGuiContext& g = *GImGui;
    for (const ImGuiWindow* w : g.Windows)
        if (w->Active && (w->Flags & ImGuiWindowFlags_Tooltip)) return text_of(*w->DrawList);
    return "";
}

}  // namespace

// Issue 28 item 23: the hover enlargement had no token labels, and only one of layer 0
// head 0's two card claims appeared under its map.
TEST_CASE("overview view: the enlargement names its tokens, and a head's every card claim is under its map and in it") {
    HeadlessImGui imgui(1280, 800);
    AppState state = tiny_lm_overview(0);
    state.ui.playback.set_position(state.results.trace->index_of(StepId::AttnWeights), 1.0f);
    const ModelSpec& spec = state.session.model->spec;
    std::vector<std::string> claims;  // layer 0 head 0's, in the card's order
    for (const HeadClaim& c : spec.head_claims)
        if (c.layer == 0 && c.head == 0) claims.push_back(text::render(c.claim));
    REQUIRE(claims.size() >= 2);
    imgui.frame(state);
    const std::string canvas = drawn_text("Canvas");
    for (const std::string& claim : claims) {
        CAPTURE(claim);
        CHECK(shows(canvas, claim.substr(0, 12)));  // each claim's start, however it was cut to the width
    }
    REQUIRE(hover_cell(imgui, state, 0));
    imgui.frame(state);
    const std::string tip = tooltip_text();
    REQUIRE_FALSE(tip.empty());
    for (const std::string& claim : claims) CHECK(shows(tip, claim));
    // Every query token left of the map, every key token standing above it, in order.
    std::string tokens;
    for (const std::string& t : state.results.query_tokens) tokens += t;
    CHECK(shows(tip, tokens));
    tokens.clear();
    for (const std::string& t : state.results.key_tokens) tokens += t;
    CHECK(shows(tip, tokens));
}
