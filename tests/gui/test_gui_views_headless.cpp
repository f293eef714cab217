// Headless smoke tests of the views: an ImGui context with a display size and built
// fonts, no window and no GL. Every step, several moments of its animation, every head.
#include <doctest/doctest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include "app/gui/frame.h"
#include "core/attention.h"
#include "app/gui/settings.h"
#include "app/io/problem.h"

using namespace attn;
using namespace attn::gui;

namespace {

struct HeadlessImGui {
    ImGuiContext* ctx;
    Fonts fonts;
    HeadlessImGui(float w, float h) : ctx(ImGui::CreateContext()) {
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(w, h);
        io.DeltaTime = 1.0f / 60.0f;
        fonts = load_fonts(1.0f);
        unsigned char* pixels = nullptr;
        int tw = 0, th = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &tw, &th);
        apply_theme(false, 1.0f);
    }
    ~HeadlessImGui() { ImGui::DestroyContext(ctx); }
    int frame(AppState& state, bool presentation, bool canvas_only) {
        ImGui::NewFrame();
        FrameContext fc;
        fc.fonts = fonts;
        fc.canvas_only = canvas_only;
        fc.presentation_header = presentation;
        draw_frame(state, fc);
        ImGui::Render();
        return ImGui::GetDrawData()->TotalVtxCount;
    }
};

AppState state_for(const AttentionConfig& c) {
    AppState state;
    const auto computed = ComputeWorker::compute(ComputeRequest{c, {}, 0, 256, std::nullopt, nullptr}, 1);
    REQUIRE_MESSAGE(computed.error.empty(), computed.error);
    state.config = c;
    accept_result(state, computed, 0.0);
    return state;
}

}  // namespace

TEST_CASE("every step draws at every moment of its animation without a GL context") {
    HeadlessImGui imgui(1280, 800);
    for (MaskKind mask : {MaskKind::None, MaskKind::Causal}) {
        AttentionConfig c;
        c.seq_len = 5;
        c.hidden_dim = 6;
        c.num_heads = 3;
        c.mask = mask;
        c.dropout = 0.2f;
        AppState state = state_for(c);
        for (int step = 0; step < state.playback.step_count(); ++step) {
            for (float progress : {0.0f, 0.37f, 1.0f}) {
                state.playback.set_position(step, progress);
                CAPTURE(step);
                CAPTURE(progress);
                CHECK(imgui.frame(state, false, false) > 100);
            }
            for (int head = -1; head < 3; ++head) {
                state.canvas.enlarged_head = head;
                CHECK(imgui.frame(state, true, false) > 0);
            }
            state.canvas.enlarged_head = -1;
        }
    }
}

TEST_CASE("a window squeezed to almost nothing still draws without failing") {
    HeadlessImGui imgui(40, 30);
    AttentionConfig c;
    AppState state = state_for(c);
    for (int step = 0; step < state.playback.step_count(); ++step) {
        state.playback.set_position(step, 0.5f);
        imgui.frame(state, false, false);
        imgui.frame(state, false, true);
    }
    CHECK(true);
}

TEST_CASE("an invalid head count is explained instead of computed") {
    AppState state;
    state.config.hidden_dim = 10;
    state.config.num_heads = 4;
    CHECK_FALSE(make_request(state).has_value());
    CHECK_FALSE(state.config_message.empty());
    state.config.num_heads = 5;
    CHECK(make_request(state).has_value());
    CHECK(state.config_message.empty());
}

TEST_CASE("the sentence decides the tokens and the sequence length") {
    AppState state;
    state.sentence = "the cat sat";
    follow_sentence(state);
    CHECK(state.config.seq_len == 3);
    state.config.seq_len = 5;
    const auto tokens = effective_tokens(state);
    REQUIRE(tokens.size() == 5u);
    CHECK(tokens[2] == "sat");
    CHECK(tokens[4] == "t4");
}

TEST_CASE("the operand panels follow the chosen head; hovering only previews") {
    StepDisplay sd;
    sd.step = 3;
    for (int h = 0; h < 16; ++h) {
        Panel p;
        p.head = h;
        sd.panels.push_back(p);
    }
    CanvasUi ui;
    ui.enlarged_head = 5;  // head 5 chosen in the dropdown
    CHECK(operand_head(ui, sd, CellRef{}) == 5);
    CHECK(operand_head(ui, sd, CellRef{3, 0, 1, 1}) == 0);  // hovering head 0: a preview
    CHECK(operand_head(ui, sd, CellRef{}) == 5);            // the mouse left: back to head 5
    ui.enlarged_head = -1;
    ui.focus_head = 7;  // clicked last
    CHECK(operand_head(ui, sd, CellRef{}) == 7);
    CHECK(operand_head(ui, sd, CellRef{4, 2, 0, 0}) == 7);  // a cell of another step does not count
}

TEST_CASE("several sentences give one batch item each, with their own valid lengths") {
    AppState state;
    state.sentence = "the cat sat on the mat | a dog ran";
    REQUIRE(follow_sentence(state));
    CHECK(state.config.batch == 2);
    CHECK(state.config.seq_len == 6);
    CHECK(state.config.mask == MaskKind::Padding);
    CHECK(state.valid_lengths == std::vector<int>{6, 3});
    const auto request = make_request(state);
    REQUIRE(request.has_value());
    CHECK(request->config.valid_lengths == std::vector<int>{6, 3});
    REQUIRE(request->sources.sentences.size() == 2u);
    CHECK(request->sources.sentences[1][2] == "ran");
    ComputeResult r = ComputeWorker::compute(*request, 1);
    REQUIRE_MESSAGE(r.error.empty(), r.error);
    // Item 1 attends over its 3 words only; the pads get exactly 0.
    const Tensor& w = r.trace->find(attn::StepId::AttnWeights)->tensor;  // (B, H, L, S)
    CHECK(w.at({1, 0, 0, 2}) > 0.0f);
    CHECK(w.at({1, 0, 0, 3}) == 0.0f);
    CHECK(w.at({0, 0, 0, 5}) > 0.0f);
    // Moving B away from the sentences: the first sentence in every item, and a note.
    state.config.batch = 3;
    const auto tiled = make_request(state);
    REQUIRE(tiled.has_value());
    CHECK(tiled->sources.sentences.empty());
    CHECK(tiled->sources.tokens.front() == "the");
    CHECK_FALSE(state.sentence_message.empty());
    state.config.batch = 2;
    REQUIRE(make_request(state).has_value());
    CHECK(state.sentence_message.empty());
}

TEST_CASE("per-item valid lengths from the command line survive a change in the window") {
    AttentionConfig c;
    c.batch = 2;
    c.seq_len = 6;
    c.mask = MaskKind::Padding;
    for (const std::vector<int>& lengths : {std::vector<int>{6, 3}, std::vector<int>{3, 6}}) {
        c.valid_lengths = lengths;
        Result<io::Problem> problem = io::build_problem(c, {});
        REQUIRE(problem.ok());
        AppState state;
        init_from_problem(state, problem.value());
        state.batch_item = 1;  // e.g. the "show item" slider moved: a new request from the state
        const auto request = make_request(state);
        REQUIRE(request.has_value());
        CHECK(request->config.valid_lengths == lengths);
    }
}

TEST_CASE("an explicit seq_len without tokens shows generic rows and an empty sentence box") {
    AttentionConfig c;
    c.seq_len = 64;
    Result<io::Problem> problem = io::build_problem(c, {});
    REQUIRE(problem.ok());
    AppState state;
    init_from_problem(state, problem.value());
    CHECK(state.sentence.empty());
    CHECK_FALSE(state.tokens_from_sentence);
    const auto request = make_request(state);
    REQUIRE(request.has_value());
    CHECK(request->sources.tokens.empty());
    CHECK(request->config.seq_len == 64);
}

TEST_CASE("deleting the whole sentence keeps the last rows and says why") {
    AppState state;
    state.sentence = "the cat sat";
    REQUIRE(follow_sentence(state));
    state.sentence = "";
    CHECK_FALSE(follow_sentence(state));
    CHECK_FALSE(state.sentence_message.empty());
    CHECK(state.config.seq_len == 3);
    CHECK(effective_tokens(state)[1] == "cat");
    state.sentence = "a b | ";
    CHECK_FALSE(follow_sentence(state));
    CHECK(state.config.batch == 1);
}

TEST_CASE("the saved settings are the configuration on screen") {
    AppState state;  // E = 6 on screen, while the settings' default says 8
    state.config.hidden_dim = 6;
    store_config_in_settings(state);
    CHECK(state.settings.hidden_dim == 6);
    CHECK(serialize_settings(state.settings).find("hidden_dim = 6") != std::string::npos);
}

namespace {

// The window named `name` if it was drawn in the last frame.
const ImGuiWindow* drawn_window(const char* name) {
    const ImGuiWindow* w = ImGui::FindWindowByName(name);
    return w && w->Active ? w : nullptr;
}

}  // namespace

TEST_CASE("a 1024x768 projector gives the canvas half the width and keeps every panel") {
    HeadlessImGui imgui(1024, 768);
    AttentionConfig c;
    c.seq_len = 6;
    c.hidden_dim = 6;
    c.num_heads = 2;
    AppState state = state_for(c);
    state.settings.hint_seen = true;
    imgui.frame(state, false, false);
    const ImGuiWindow* canvas = drawn_window("Canvas");
    REQUIRE(canvas);
    CHECK(canvas->Size.x >= 1024.0f * 0.5f - 16.0f);
    for (const char* name : {"Controls", "Timeline", "Explanation", "Inspector"}) {
        CAPTURE(name);
        const ImGuiWindow* w = drawn_window(name);
        REQUIRE(w);
        CHECK(w->Size.x > 100.0f);
        CHECK(w->Size.y > 30.0f);
        CHECK(w->Pos.x + w->Size.x <= 1024.0f + 0.5f);  // nothing off the right edge
        CHECK(w->Pos.y + w->Size.y <= 768.0f + 0.5f);
    }
}

TEST_CASE("a narrow window folds the controls into a tab that opens them over the canvas") {
    HeadlessImGui imgui(600, 500);
    AttentionConfig c;
    AppState state = state_for(c);
    state.settings.hint_seen = true;
    imgui.frame(state, false, false);
    CHECK(drawn_window("##controls_tab"));
    CHECK_FALSE(drawn_window("Controls"));
    CHECK(drawn_window("Canvas")->Size.x >= 300.0f - 16.0f);
    state.controls_open = true;
    imgui.frame(state, false, false);
    CHECK(drawn_window("Controls"));
}

TEST_CASE("the first-run hint shows until it is dismissed or the user steps on") {
    HeadlessImGui imgui(1280, 800);
    AttentionConfig c;
    AppState state = state_for(c);
    REQUIRE_FALSE(state.settings.hint_seen);
    imgui.frame(state, false, false);
    CHECK(drawn_window("##first_run_hint"));
    state.playback.set_position(1, 1.0f);
    imgui.frame(state, false, false);
    CHECK(state.settings.hint_seen);
    imgui.frame(state, false, false);
    CHECK_FALSE(drawn_window("##first_run_hint"));
}
