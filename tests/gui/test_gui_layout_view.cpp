// Issue 28's third look, measured on the window drawn headless at 1024x768 and 1920x1080:
// heads are laid out by their cells' short side (pinned or not), the canvas's text is
// never drawn over other text and never cut at the canvas's or a compare column's edge,
// and compare mode's A and B print their numbers by one rule. The text is read back from
// the draw lists (drawn_runs, app/gui/kit/test_hook.h).
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "app/gui/state/compare.h"
#include "app/gui/views/canvas/canvas_painter.h"
#include "app/gui/kit/test_hook.h"
#include "app/io/model_loader.h"
#include "tests/gui/headless_imgui.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;
using namespace attn::test_configs;

namespace {

// tiny-lm's layer 0 on `sentence`, as the window computes it.
AppState tiny_lm_on(const std::string& sentence) {
    Result<std::shared_ptr<const Model>> model = io::load_model("tiny-lm");
    REQUIRE_MESSAGE(model.ok(), model.error());
    ComputeRequest request;
    request.model = model.value();
    request.model_sentence = sentence;
    request.max_extent = 256;
    const ComputeResult result = ComputeWorker::compute(request, 1);
    REQUIRE_MESSAGE(result.error.empty(), result.error);
    AppState state;
    state.session.model = model.value();
    state.session.sentence = state.session.sentence_in_use = sentence;
    accept_result(state, result, 0.0);
    return state;
}

// Draws frames (the layout settles) with step `id` on screen, its animation ended.
void show_step(HeadlessImGui& ui, AppState& state, StepId id) {
    const int step = state.results.trace->index_of(id);
    REQUIRE(step >= 0);
    for (int i = 0; i < 3; ++i) {
        state.ui.playback.set_position(step, 1.0f);
        ui.frame(state);
    }
}

bool in_canvas(const DrawnRun& run) { return run.window.rfind("Canvas", 0) == 0; }

// Every pair of the canvas's runs of text whose boxes overlap (more than a pixel each way),
// and every run cut at its clip rectangle's edge.
struct TextClashes {
    std::vector<std::string> overlaps, cut;
};
TextClashes canvas_text_clashes() {
    TextClashes out;
    std::vector<DrawnRun> runs;
    for (const DrawnRun& run : drawn_runs(*ImGui::GetDrawData()))
        if (in_canvas(run) && run.bottom > run.top && run.right > run.x) runs.push_back(run);
    for (size_t i = 0; i < runs.size(); ++i) {
        if (runs[i].cut_start || runs[i].cut_end) out.cut.push_back(runs[i].text);
        for (size_t j = i + 1; j < runs.size(); ++j) {
            const DrawnRun &a = runs[i], &b = runs[j];
            const bool apart = a.right <= b.x + 1.0f || b.right <= a.x + 1.0f || a.bottom <= b.top + 1.0f || b.bottom <= a.top + 1.0f;
            if (!apart) out.overlaps.push_back("'" + a.text + "' over '" + b.text + "'");
        }
    }
    return out;
}

void check_no_clashes(const char* what) {
    const TextClashes clashes = canvas_text_clashes();
    CAPTURE(what);
    for (const std::string& o : clashes.overlaps) FAIL_CHECK("text over text: " << o);
    for (const std::string& c : clashes.cut) FAIL_CHECK("text cut at an edge: " << c);
}

}  // namespace

TEST_CASE("tiny-lm's four heads at 1024x768 get square-ish cells, the same whether or not a cell is pinned") {
    HeadlessImGui ui(1024, 768);
    AppState state = tiny_lm_on("The Dog saw a zebra, and it ran.");  // L = 11
    show_step(ui, state, StepId::AttnWeights);
    const float free_cell = state.ui.canvas.result_cell;  // the short side
    // Before: one column of 16 x 4.6 px cells (the area of a sliver counted as "large").
    CHECK(free_cell >= 7.0f);
    state.ui.canvas.pinned = CellRef{state.results.trace->index_of(StepId::AttnWeights), 0, 2, 1};
    show_step(ui, state, StepId::AttnWeights);
    CHECK(state.ui.canvas.result_cell == doctest::Approx(free_cell).epsilon(0.02));
}

TEST_CASE("the canvas's words never overprint each other and are never cut, at 1024x768 and 1920x1080") {
    for (const ImVec2 size : {ImVec2(1024, 768), ImVec2(1920, 1080)}) {
        CAPTURE(size.x);
        HeadlessImGui ui(size.x, size.y);
        SUBCASE("tiny-lm with unknown words, the weights (numbers hidden, masked keys)") {
            AppState state = tiny_lm_on("The Dog saw a zebra, and it ran.");
            show_step(ui, state, StepId::AttnWeights);
            check_no_clashes("tiny-lm attn_weights");
        }
        SUBCASE("random weights at L = 12 with the causal mask") {
            AppState state = state_for(causal(sized(12, 8, 2)));
            show_step(ui, state, StepId::AttnWeights);
            check_no_clashes("L = 12 attn_weights");
        }
        SUBCASE("compare mode's three columns, RoPE at two offsets") {
            AppState state = state_for(rotated(sized(5, 8, 2)));
            start_compare(state);
            state.compare.b.config = rotated(sized(5, 8, 2), RopeStyle::Half, 5);
            accept_b_result(state.compare, computed(state.compare.b.config), 0.0);
            show_step(ui, state, StepId::AttnScores);
            check_no_clashes("compare attn_scores");
        }
    }
}

TEST_CASE("compare mode's A and B print their cells' numbers by one rule") {
    // A's scaled scores are small (two decimals needed), B's unscaled ones large (one does):
    // some cell width holds B's numbers but not A's. With each the other's peer, both decide
    // alike at every width.
    HeadlessImGui ui(1024, 768);
    AttentionConfig unscaled = sized(6, 256, 1);
    unscaled.scale = ScaleChoice{ScaleKind::None, 1.0f};
    const AppState a = state_for(sized(6, 256, 1)), b = state_for(unscaled);
    const int step = a.results.trace->index_of(StepId::AttnScaled);
    REQUIRE(step >= 0);
    const auto frame_of = [&](const AppState& s) {
        CanvasFrame f;
        f.trace = s.results.trace.get();
        f.model = s.results.model.get();
        f.step = step;
        f.fonts = ui.fonts;
        return f;
    };
    const auto decimals_at = [&](const CanvasFrame& f, float w) {
        Painter p;
        p.f = &f;
        return cell_number_format(p, step, w, 30.0f).decimals >= 0;
    };
    CanvasFrame fa = frame_of(a), fb = frame_of(b);
    bool differ_alone = false;
    for (float w = 8.0f; w < 80.0f; w += 1.0f) differ_alone |= decimals_at(fa, w) != decimals_at(fb, w);
    REQUIRE(differ_alone);  // the case the rule is for
    fa.number_peer = {b.results.trace.get(), b.results.model.get(), step};
    fb.number_peer = {a.results.trace.get(), a.results.model.get(), step};
    for (float w = 8.0f; w < 80.0f; w += 1.0f) {
        CAPTURE(w);
        CHECK(decimals_at(fa, w) == decimals_at(fb, w));
    }
}
