// The code panel, headless: it follows the current step (highlight and shape note under
// the line), dims the branches this configuration does not take, and a click on a line
// shows that line's step. At the projector's and a desktop's sizes.
#include <doctest/doctest.h>
#include <unistd.h>

#include <cfloat>
#include <filesystem>
#include <string>

#include "app/gui/export/export_runner.h"
#include "app/gui/views/view_registry.h"
#include "app/io/torch_code.h"
#include "app/text/languages.h"
#include "core/recipe.h"
#include "tests/gui/headless_imgui.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;
using namespace attn::test_configs;

namespace {

// A causal configuration: its code has a masking line.
const AttentionConfig kMasked = causal(sized(4, 8, 2));

const char* code_window() { return text::label("window.code"); }

void frames(HeadlessImGui& imgui, AppState& state, int count) {
    for (int i = 0; i < count; ++i) imgui.frame(state);
}

// Moves the mouse down `panel` (3 px a frame, so each line passes in a few frames) until it
// rests on a line of the generic module that produces `id`; false when none is in view.
bool sweep_to_line_of(HeadlessImGui& imgui, AppState& state, const ImGuiWindow* panel, StepId id) {
    const std::vector<io::CodeLine>& lines = io::torch_module_lines();
    for (float y = panel->Pos.y; y < panel->Pos.y + panel->Size.y; y += 3.0f) {
        ImGui::GetIO().MousePos = ImVec2(panel->Pos.x + panel->Size.x * 0.3f, y);
        imgui.frame(state);
        const int line = state.ui.code.hovered_line;
        if (line < 0) continue;
        for (StepId step : lines[static_cast<size_t>(line)].steps)
            if (step == id) return true;
    }
    return false;
}

// The canvas's text with the code panel closed (under the canvas at 1280x800 it leaves
// no room for the storage strip); the panel is opened again.
std::string canvas_without_code(HeadlessImGui& imgui, AppState& state) {
    state.ui.code.show = false;
    frames(imgui, state, 3);
    const std::string drawn = drawn_text("Canvas");
    state.ui.code.show = true;
    frames(imgui, state, 2);
    return drawn;
}

}  // namespace

TEST_CASE("the code panel highlights the current step's line and writes its shape under it") {
    for (const ImVec2 size : {ImVec2(1920, 1080), ImVec2(1024, 768)}) {
        CAPTURE(size.x);
        HeadlessImGui imgui(size.x, size.y);
        AppState state = state_for(kMasked);
        REQUIRE(state.results.trace);
        state.settings.hint_seen = true;
        ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);

        frames(imgui, state, 2);
        CHECK_FALSE(drawn_window(code_window()));  // hidden until View > PyTorch code
        state.ui.code.show = true;

        const Trace& trace = *state.results.trace;
        state.ui.playback.set_position(trace.index_of(StepId::AttnScores), 1.0f);
        frames(imgui, state, 3);
        const ImGuiWindow* panel = drawn_window(code_window());
        REQUIRE(panel);
        // Wide enough for ~60 columns of code at both sizes; the canvas keeps the larger part.
        CHECK(panel->Size.x >= ImGui::GetFontSize() * 30.0f);
        const ImGuiWindow* canvas = drawn_window("Canvas");
        REQUIRE(canvas);
        CHECK(canvas->Size.x * canvas->Size.y >= panel->Size.x * panel->Size.y);
        std::string drawn = drawn_text(code_window());
        CHECK(shows(drawn, "attn_scores = queries @ keys.transpose(-2, -1)"));
        CHECK(shows(drawn, "# attn_scores (B, H, L, S) = (1, 2, 4, 4)"));

        // Stepping moves the highlight: the note follows to the next step's line.
        state.ui.playback.set_position(trace.index_of(StepId::AttnMasked), 1.0f);
        frames(imgui, state, 3);
        drawn = drawn_text(code_window());
        CHECK(shows(drawn, "# attn_masked (B, H, L, S) = (1, 2, 4, 4)"));
        CHECK_FALSE(shows(drawn, "# attn_scores (B, H, L, S) ="));

        // Late steps scroll into view: out is the module's last step.
        state.ui.playback.set_position(trace.index_of(StepId::Out), 1.0f);
        frames(imgui, state, 3);
        CHECK(shows(drawn_text(code_window()), "# out (B, L, E) = (1, 4, 8)"));
    }
}

TEST_CASE("with a recipe the code panel shows the recipe's own class and highlights its lines") {
    for (const ImVec2 size : {ImVec2(1920, 1080), ImVec2(1024, 768)}) {
        CAPTURE(size.x);
        HeadlessImGui imgui(size.x, size.y);
        const Recipe* recipe = find_recipe("scratch-mha");
        REQUIRE(recipe);
        AppState state = state_for(recipe->config);
        REQUIRE(state.results.trace);
        REQUIRE(state.results.trace->config.recipe == "scratch-mha");
        state.settings.hint_seen = true;
        state.ui.code.show = true;
        ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
        const Trace& trace = *state.results.trace;
        state.ui.playback.set_position(trace.index_of(StepId::AttnScores), 1.0f);
        frames(imgui, state, 3);
        std::string drawn = drawn_text(code_window());
        // The class's first line is in view beside the canvas; under it (1024x768) the
        // panel has scrolled to the highlight.
        if (size.x >= 1920) CHECK(shows(drawn, "class ScratchMha(nn.Module):"));
        CHECK(shows(drawn, "ScratchMha from AttnViz's recipe_modules.py"));
        CHECK_FALSE(shows(drawn, "class Attention(nn.Module)"));
        CHECK_FALSE(shows(drawn, "attn_scores = queries @ keys.transpose(-2, -1)"));  // the generic module's line
        // The highlighted line is the class's own, with the shape it produced under it.
        const Step& scores = trace.steps[static_cast<size_t>(trace.index_of(StepId::AttnScores))];
        // As the article writes it: no self.keep; the step's tag is drawn in the margin
        // right after the line (so it stays above the highlight).
        CHECK(shows(drawn, "scores = q @ k.transpose(2, 3) attn_scores"));
        CHECK_FALSE(shows(drawn, "self.keep"));
        CHECK(shows(drawn, "# attn_scores (B, H, L, S) = (" + std::to_string(scores.tensor.dim(0)) + ", " +
                               std::to_string(scores.tensor.dim(1)) + ", "));

        // The next step moves the highlight to the class's masking line.
        state.ui.playback.set_position(trace.index_of(StepId::AttnMasked), 1.0f);
        frames(imgui, state, 3);
        drawn = drawn_text(code_window());
        CHECK(shows(drawn, "# attn_masked (B, H, L, S) = ("));
        CHECK_FALSE(shows(drawn, "# attn_scores (B, H, L, S) ="));
    }
    // A single-head class has no line for the head-axis views AttnViz adds: the panel says so.
    HeadlessImGui imgui(1280, 800);
    const Recipe* v1 = find_recipe("selfatt-v1");
    REQUIRE(v1);
    AppState state = state_for(v1->config);
    REQUIRE(state.results.trace);
    state.settings.hint_seen = true;
    state.ui.code.show = true;
    state.ui.playback.set_position(state.results.trace->index_of(StepId::QHeads), 1.0f);
    frames(imgui, state, 3);
    const std::string drawn = drawn_text(code_window());
    CHECK(shows(drawn, "class SelfAttV1(nn.Module):"));
    CHECK(shows(drawn, "SelfAttV1 has no line for q_heads; AttnViz adds this step"));
}

TEST_CASE("clicking a line of the code panel shows its step") {
    HeadlessImGui imgui(1280, 800);
    AppState state = state_for(kMasked);
    REQUIRE(state.results.trace);
    state.settings.hint_seen = true;
    state.ui.code.show = true;
    const Trace& trace = *state.results.trace;
    // On the masked scores: the softmax line a few lines below is in view.
    const int masked = trace.index_of(StepId::AttnMasked);
    state.ui.playback.set_position(masked, 1.0f);
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    frames(imgui, state, 3);
    const ImGuiWindow* panel = drawn_window(code_window());
    REQUIRE(panel);

    // Move down the panel until the mouse rests on the softmax line, then click it.
    const int weights = trace.index_of(StepId::AttnWeights);
    REQUIRE(sweep_to_line_of(imgui, state, panel, StepId::AttnWeights));
    CHECK(state.ui.playback.step() == masked);  // hovering alone does not move
    ImGui::GetIO().MouseDown[0] = true;
    imgui.frame(state);
    ImGui::GetIO().MouseDown[0] = false;
    imgui.frame(state);
    CHECK(state.ui.playback.step() == weights);
    frames(imgui, state, 2);
    CHECK(shows(drawn_text(code_window()), "# attn_weights (B, H, L, S) = (1, 2, 4, 4)"));

    // A line of a branch this configuration does not take (the fused projection) is not
    // a step to jump to: its tooltip says so and a click changes nothing.
    const int before = state.ui.playback.step();
    if (sweep_to_line_of(imgui, state, panel, StepId::Qkv)) {  // scrolled out of view otherwise (the panel follows the highlight)
        ImGui::GetIO().MouseDown[0] = true;
        imgui.frame(state);
        ImGui::GetIO().MouseDown[0] = false;
        imgui.frame(state);
        CHECK(state.ui.playback.step() == before);
    }
}

TEST_CASE("File > Export as PyTorch writes the folder, or says in the dialog why it cannot") {
    const std::filesystem::path base =
        std::filesystem::temp_directory_path() / ("attnviz_gui_torch_" + std::to_string(::getpid()));
    std::filesystem::remove_all(base);
    ExportRequest request;
    request.kind = ExportKind::TorchDir;
    request.create_folder = base.string();  // the dialog's "create folder?" answered yes

    SUBCASE("float32: the folder is written and the status line says how to run it") {
        AppState state = state_for(kMasked);
        REQUIRE(state.results.trace);
        request.path = (base / "torch").string();
        ExportRunner runner;
        runner.start(state, request, 1280, 800, 0.0);
        CHECK(state.jobs.dialog.error.empty());
        CHECK(std::filesystem::exists(base / "torch" / "attention.py"));
        CHECK(text::render(state.ui.status).find("attention.py") != std::string::npos);
    }
    SUBCASE("bfloat16: refused with the reason in the dialog, nothing written") {
        AttentionConfig c = kMasked;
        c.dtype = DType::BFloat16;
        AppState state = state_for(c);
        REQUIRE(state.results.trace);
        request.path = (base / "bf16").string();
        ExportRunner runner;
        runner.start(state, request, 1280, 800, 0.0);
        CHECK(text::render(state.jobs.dialog.error).find("float32") != std::string::npos);
        CHECK_FALSE(std::filesystem::exists(base / "bf16"));
    }
    std::filesystem::remove_all(base);
}

TEST_CASE("resting the mouse on a code line only highlights it: the step changes on a click alone") {
    HeadlessImGui imgui(1280, 800);
    AppState state = state_for(kMasked);
    REQUIRE(state.results.trace);
    state.settings.hint_seen = true;
    state.ui.code.show = true;
    const Trace& trace = *state.results.trace;
    const int masked = trace.index_of(StepId::AttnMasked);
    const int weights = trace.index_of(StepId::AttnWeights);
    state.ui.playback.set_position(masked, 1.0f);
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
    frames(imgui, state, 3);
    const ImGuiWindow* panel = drawn_window(code_window());
    REQUIRE(panel);
    // Sweep down to the softmax line and rest there: a teacher pointing at code.
    REQUIRE(sweep_to_line_of(imgui, state, panel, StepId::AttnWeights));
    CHECK(state.ui.playback.step() == masked);
    frames(imgui, state, 180);  // three seconds at rest (HeadlessImGui runs at 60 frames a second)
    CHECK(state.ui.playback.step() == masked);
    CHECK(state.ui.code.hovered_line >= 0);  // the line under the mouse is the hovered one
    // A click on the same line goes to its step.
    ImGui::GetIO().MouseDown[0] = true;
    frames(imgui, state, 1);
    ImGui::GetIO().MouseDown[0] = false;
    frames(imgui, state, 2);
    CHECK(state.ui.playback.step() == weights);
}

TEST_CASE("llama and interview-mha: the code, the step texts and the storage strip agree on where the heads are copied") {
    struct Expected {
        const char* recipe;
        const char* split_line;   // the highlighted line at context_split
        const char* concat_line;  // and at concat
        const char* concat_texts;
    };
    for (const Expected& e : {Expected{"llama", "context = context.transpose(1, 2).contiguous()",
                                       "concat = context.reshape(bsz, q_len, -1)", "step.concat.code_reshape"},
                              Expected{"interview-mha", "context = context.transpose(1, 2).contiguous()",
                                       "output = context.view(b, n, -1)", "step.concat.code_view"}}) {
        CAPTURE(e.recipe);
        HeadlessImGui imgui(1280, 800);
        const Recipe* recipe = find_recipe(e.recipe);
        REQUIRE(recipe);
        AppState state = state_for(recipe->config);
        REQUIRE(state.results.trace);
        state.settings.hint_seen = true;
        state.ui.code.show = true;
        ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
        const Trace& trace = *state.results.trace;
        const char* explanation = text::label("window.explanation");

        // context_split: the code copies here, the trace's tensor is a view; both say so.
        state.ui.playback.set_position(trace.index_of(StepId::ContextSplit), 1.0f);
        frames(imgui, state, 3);
        CHECK(shows(drawn_text(code_window()), std::string(e.split_line) + " context_split"));
        std::string words = drawn_text(explanation);
        CHECK(shows(words, text::tr("step.context_split.code_copies.title")));
        CHECK(shows(words, text::tr("storage.code_copies_here")));
        CHECK_FALSE(shows(words, text::tr("step.context_split.explanation")));  // "cannot be view()ed yet"
        CHECK(shows(canvas_without_code(imgui, state), text::tr("storage.code_copies_here")));

        // concat: the code's view or reshape, no ".contiguous() + view" title.
        state.ui.playback.set_position(trace.index_of(StepId::Concat), 1.0f);
        frames(imgui, state, 3);
        CHECK(shows(drawn_text(code_window()), std::string(e.concat_line) + " concat"));
        words = drawn_text(explanation);
        CHECK(shows(words, text::tr(std::string(e.concat_texts) + ".title")));
        CHECK_FALSE(shows(words, text::tr("step.concat.title")));
        CHECK(shows(words, text::tr("step.concat.copy_code_earlier")));
        CHECK(shows(canvas_without_code(imgui, state), text::tr("storage.code_view_here")));
    }
}
