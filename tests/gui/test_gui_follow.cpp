// Follow a cell (app/gui/display/follow.h): the lineage is what the core's explanations say,
// walked backwards and forwards, and the strip's values are the trace's cells.
#include <doctest/doctest.h>

#include <algorithm>

#include "app/gui/display/follow.h"
#include "app/gui/display/tour_bubble.h"
#include "app/gui/state/follow_state.h"
#include "app/text/languages.h"
#include "tests/gui/headless_imgui.h"
#include "core/attention.h"
#include "core/recipe.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::test_configs;

namespace {

Trace causal_trace() {
    Result<Trace> t = run_attention(causal(sized(5, 8, 2)));
    REQUIRE_MESSAGE(t.ok(), t.error());
    return std::move(t.value());
}

// The role of `index` in the lineage's `step`, or none.
std::optional<LineageRole> role_of(const Lineage& lineage, StepId step, const std::vector<int64_t>& index) {
    const LineageStep* s = lineage.find(step);
    if (!s) return std::nullopt;
    for (const LineageCell& c : s->cells)
        if (c.index == index) return c.role;
    return std::nullopt;
}

size_t cells_in(const Lineage& lineage, StepId step, LineageRole role) {
    const LineageStep* s = lineage.find(step);
    if (!s) return 0;
    return static_cast<size_t>(std::count_if(s->cells.begin(), s->cells.end(), [&](const LineageCell& c) { return c.role == role; }));
}

}  // namespace

TEST_CASE("a score's lineage holds the cells its explanation highlights and the same cell through scaling, mask and softmax") {
    const Trace trace = causal_trace();
    const std::vector<int64_t> cell{0, 1, 3, 1};  // (b, h, i, j)
    const Lineage lineage = cell_lineage(trace, CellAddress::of_step(StepId::AttnScores, cell));
    REQUIRE_FALSE(lineage.steps.empty());
    // Backwards: the q row and k row the explanation names.
    const CellExplanation e = explain_cell(trace, CellAddress::of_step(StepId::AttnScores, cell));
    REQUIRE(e.highlights.size() == 2);
    for (const StepCells& h : e.highlights)
        for (const std::vector<int64_t>& index : h.cells) {
            CAPTURE(step_name(h.step));
            CHECK(role_of(lineage, h.step, index) == LineageRole::Source);
        }
    CHECK(cells_in(lineage, StepId::QHeads, LineageRole::Source) == 4);  // one row of d_h = 4
    CHECK(cells_in(lineage, StepId::KHeads, LineageRole::Source) == 4);
    CHECK(cells_in(lineage, StepId::Q, LineageRole::Source) == 4);       // the same numbers, before the head split
    // Forwards: the same cell, each one explained by the one before it.
    StepId before = StepId::AttnScores;
    for (StepId step : {StepId::AttnScaled, StepId::AttnMasked, StepId::AttnWeights}) {
        CAPTURE(step_name(step));
        CHECK(role_of(lineage, step, cell) == LineageRole::Same);
        CHECK(cells_in(lineage, step, LineageRole::Same) == 1);
        const CellExplanation link = explain_cell(trace, CellAddress::of_step(step, cell));
        CHECK(link.operand == CellAddress::of_step(before, cell));
        before = step;
    }
    // The other weights of the row only share its softmax: not what the score goes into.
    CHECK_FALSE(role_of(lineage, StepId::AttnWeights, {0, 1, 3, 0}).has_value());
    // The context row of query 3 in head 1, then the out row 3, every column.
    CHECK(cells_in(lineage, StepId::Context, LineageRole::Feeds) == 4);
    for (int64_t o = 0; o < 8; ++o) CHECK(role_of(lineage, StepId::Out, {0, 3, o}) == LineageRole::Feeds);
    CHECK(cells_in(lineage, StepId::Out, LineageRole::Feeds) == 8);
    CHECK(cells_in(lineage, StepId::Concat, LineageRole::Feeds) == 4);  // head 1's columns of row 3
    for (int64_t d = 0; d < 4; ++d) CHECK(role_of(lineage, StepId::Concat, {0, 3, 4 + d}) == LineageRole::Feeds);
}

TEST_CASE("a context cell's lineage holds the weights row and the value column behind it") {
    const Trace trace = causal_trace();
    const std::vector<int64_t> cell{0, 0, 2, 1};  // (b, h, i, d)
    const Lineage lineage = cell_lineage(trace, CellAddress::of_step(StepId::Context, cell));
    for (int64_t j = 0; j < 5; ++j) {
        CAPTURE(j);
        CHECK(role_of(lineage, StepId::AttnWeights, {0, 0, 2, j}) == LineageRole::Source);
        CHECK(role_of(lineage, StepId::VHeads, {0, 0, j, 1}) == LineageRole::Source);
    }
    CHECK(cells_in(lineage, StepId::Out, LineageRole::Feeds) == 8);
    CHECK(role_of(lineage, StepId::Concat, {0, 2, 1}) == LineageRole::Same);  // the number itself, moved
}

TEST_CASE("the strip lists the trace's own values of the followed number, step by step, then what it feeds") {
    const Trace trace = causal_trace();
    const std::vector<int64_t> cell{0, 0, 4, 2};
    const Lineage lineage = cell_lineage(trace, CellAddress::of_step(StepId::AttnScores, cell));
    const std::vector<FollowStop> stops = follow_strip(trace, lineage);
    std::vector<StepId> same;
    for (const FollowStop& stop : stops) {
        if (!stop.same) continue;
        CAPTURE(step_name(stop.step));
        same.push_back(stop.step);
        CHECK(stop.value == trace.find(stop.step)->tensor.at(cell));  // exactly the recorded float
    }
    CHECK(same == std::vector<StepId>{StepId::AttnScores, StepId::AttnScaled, StepId::AttnMasked, StepId::AttnWeights});
    REQUIRE_FALSE(stops.empty());
    CHECK_FALSE(stops.back().same);
    CHECK(stops.back().step == StepId::Out);
    CHECK(stops.back().cells == 8);
}

TEST_CASE("a weight element's lineage is its output feature in every projection, and what that feeds") {
    const Trace trace = causal_trace();
    const Lineage lineage = cell_lineage(trace, CellAddress::of_weight(WeightId::Wq, 5, 2));
    const CellExplanation e = explain_cell(trace, CellAddress::of_weight(WeightId::Wq, 5, 2));
    for (const StepCells& f : e.flows)
        for (const std::vector<int64_t>& index : f.cells) CHECK(role_of(lineage, f.step, index) == LineageRole::Feeds);
    CHECK(cells_in(lineage, StepId::Q, LineageRole::Feeds) == 5);  // feature 5 of every row
    CHECK(cells_in(lineage, StepId::AttnScores, LineageRole::Feeds) > 0);
}

TEST_CASE("a lineage cell is found in the panel that draws it") {
    const Trace trace = causal_trace();
    const DisplayModel model = build_display_model(trace, {}, {}, 0);
    const int step = trace.index_of(StepId::AttnScores);
    const StepDisplay& sd = model.steps[static_cast<size_t>(step)];
    PanelCellPos at;
    REQUIRE(panel_cell(sd, {0, 1, 3, 2}, at));
    CHECK(cell_index(sd.panels[static_cast<size_t>(at.panel)], at.row, at.col) == std::vector<int64_t>{0, 1, 3, 2});
    const int q = trace.index_of(StepId::Q);
    REQUIRE(panel_cell(model.steps[static_cast<size_t>(q)], {0, 2, 6}, at));
    CHECK(cell_index(model.steps[static_cast<size_t>(q)].panels[static_cast<size_t>(at.panel)], at.row, at.col) ==
          std::vector<int64_t>{0, 2, 6});
    CHECK_FALSE(panel_cell(sd, {0, 1, 7, 2}, at));  // no row 7
}

namespace {

void recompute(AppState& state, const AttentionConfig& c) {
    ComputeRequest request;
    request.config = c;
    request.max_extent = 256;
    const ComputeResult computed = ComputeWorker::compute(request, 1);
    REQUIRE_MESSAGE(computed.error.empty(), text::render(computed.error));
    accept_result(state, computed, 0.0);
}

}  // namespace

TEST_CASE("a followed cell is followed in the new trace after a new seed, and dropped when its step changes shape") {
    AttentionConfig c = causal(sized(5, 8, 2));
    AppState state = testing::state_for(c);
    FollowUi& follow = state.ui.canvas.follow;
    follow.cell = CellRef{state.results.trace->index_of(StepId::AttnScores), 1, 3, 1};
    refresh_follow(follow, state.results);
    REQUIRE(follow.lineage);
    CHECK(follow.lineage->followed == CellAddress::of_step(StepId::AttnScores, {0, 1, 3, 1}));
    const std::shared_ptr<const Lineage> before = follow.lineage;
    c.seed = 3;
    recompute(state, c);
    REQUIRE(follow.cell.valid());
    refresh_follow(follow, state.results);
    REQUIRE(follow.lineage);
    CHECK(follow.lineage != before);  // the new trace's lineage
    CHECK(follow.trace.lock() == state.results.trace);
    const std::vector<FollowStop> stops = follow_strip(*state.results.trace, *follow.lineage);
    REQUIRE_FALSE(stops.empty());
    CHECK(stops.front().value == state.results.trace->find(StepId::AttnScores)->tensor.at({0, 1, 3, 1}));
    c.num_heads = 1;
    recompute(state, c);
    CHECK_FALSE(follow.cell.valid());
    refresh_follow(follow, state.results);
    CHECK_FALSE(follow.lineage);
}

TEST_CASE("the whole window follows a cell through every step, and the tour's overlay outlines the slots it records") {
    testing::HeadlessImGui ui(1024, 768);
    AppState state = testing::state_for(causal(sized(5, 8, 2)));
    state.settings.hint_seen = true;
    const int scores = state.results.trace->index_of(StepId::AttnScores);
    state.ui.canvas.follow.cell = CellRef{scores, 0, 4, 2};
    for (int step = 0; step < state.ui.playback.step_count(); ++step) {
        CAPTURE(step);
        state.ui.playback.set_position(step, 1.0f);
        ui.frame(state);
        ui.frame(state);
        REQUIRE(state.ui.canvas.follow.lineage);  // made by the canvas, kept while nothing changes
        CHECK(state.ui.canvas.follow.cell.step == scores);
        for (const char* id : {"menu", "controls", "timeline", "canvas", "explanation", "inspector"}) CHECK_MESSAGE(state.ui.elements.find(id), id);
    }
    const std::shared_ptr<const Lineage> made = state.ui.canvas.follow.lineage;
    ui.frame(state);
    CHECK(state.ui.canvas.follow.lineage == made);  // not made again each frame
    // The tour's bubble is drawn beside the outlined inspector, on screen.
    state.ui.lesson.marks.elements = {"inspector"};
    state.tour.index = 0;
    state.tour.count = 3;
    state.tour.title = "The inspector";
    state.tour.text = "It explains the pinned cell.";
    ui.frame(state);
    ui.frame(state);
    ImGuiWindow* bubble = ImGui::FindWindowByName("##tour_bubble");
    REQUIRE(bubble);
    const Rect inspector = *state.ui.elements.find("inspector");
    const Rect at{bubble->Pos.x, bubble->Pos.y, bubble->Size.x, bubble->Size.y};
    CHECK_FALSE(rects_overlap(at, inspector));
    CHECK(at.right() <= 1024.0f);
    CHECK(at.bottom() <= 768.0f);
}

TEST_CASE("in every recipe and variant a score's number is carried to its weight, each link named by the link's explanation") {
    std::vector<std::pair<std::string, AttentionConfig>> configs;
    for (const Recipe& recipe : recipes()) configs.emplace_back(recipe.name, recipe.config);
    for (Variant variant : {Variant::Split, Variant::Fused, Variant::Stacked})
        configs.emplace_back("variant " + std::to_string(static_cast<int>(variant)), with_variant(causal(sized(4, 6, 2)), variant));
    for (const auto& [name, config] : configs) {
        CAPTURE(name);
        Result<Trace> run = run_attention(config);
        REQUIRE_MESSAGE(run.ok(), run.error());
        const Trace& trace = run.value();
        const Step* scores = trace.find(StepId::AttnScores);
        REQUIRE(scores);
        std::vector<int64_t> cell(scores->tensor.shape().size(), 0);
        cell[2] = scores->tensor.dim(2) - 1;  // the last query, which sees every key
        const Lineage lineage = cell_lineage(trace, CellAddress::of_step(StepId::AttnScores, cell));
        CHECK(role_of(lineage, StepId::AttnWeights, cell) == LineageRole::Same);
        // Every Same cell after the score is computed from a Same cell: its explanation's operand.
        bool after = false;
        for (const LineageStep& s : lineage.steps) {
            after |= s.step == StepId::AttnScores;
            if (!after || s.step == StepId::AttnScores) continue;
            for (const LineageCell& c : s.cells) {
                if (c.role != LineageRole::Same) continue;
                CAPTURE(step_name(s.step));
                const CellExplanation e = explain_cell(trace, CellAddress::of_step(s.step, c.index));
                CHECK(role_of(lineage, e.operand.step, e.operand.index) == LineageRole::Same);
            }
        }
        if (const Step* out = trace.find(StepId::Out))  // the whole out row of that query
            CHECK(cells_in(lineage, StepId::Out, LineageRole::Feeds) == static_cast<size_t>(out->tensor.dim(2)));
    }
}

TEST_CASE("a trained model's weight is followed into the residual and the next-word probabilities") {
    const AppState state = testing::state_for_model("tiny-lm", 0);
    const Trace& trace = *state.results.trace;
    const Step* weights = trace.find(StepId::AttnWeights);
    REQUIRE(weights);
    const std::vector<int64_t> cell{0, 1, 3, 2};
    const Lineage lineage = cell_lineage(trace, CellAddress::of_step(StepId::AttnWeights, cell));
    CHECK(role_of(lineage, StepId::AttnScores, cell) == LineageRole::Same);
    CHECK(cells_in(lineage, StepId::Out, LineageRole::Feeds) == static_cast<size_t>(trace.find(StepId::Out)->tensor.dim(2)));
    for (StepId later : {StepId::Residual, StepId::NextTokenProbs}) {
        CAPTURE(step_name(later));
        if (trace.find(later)) CHECK(cells_in(lineage, later, LineageRole::Feeds) > 0);
    }
    // Back through the head split to q's row, not further: q's cells were made by a sum.
    CHECK(cells_in(lineage, StepId::Q, LineageRole::Source) == static_cast<size_t>(trace.config.head_dim()));
    CHECK(cells_in(lineage, StepId::Norm, LineageRole::Source) == 0);
}

// Found looking at a lesson slide at 1024x768: with the code panel under the canvas and a
// followed cell's strip at its bottom, the weights' "how peaked" lines took the rest and
// the enlarged head was drawn 3 pixels high. The least needed bands now fold first.
TEST_CASE("at 1024x768 with the code panel and a followed cell, the enlarged head keeps cells a reader can see") {
    testing::HeadlessImGui ui(1024, 768);
    AppState state = testing::state_for(causal(sized(6, 16, 4)));
    state.settings.hint_seen = true;
    state.ui.code.show = true;
    state.ui.canvas.enlarged_head = 2;
    const int scores = state.results.trace->index_of(StepId::AttnScores);
    state.ui.canvas.follow.cell = CellRef{scores, 2, 3, 2};
    state.ui.playback.set_position(state.results.trace->index_of(StepId::AttnWeights), 1.0f);
    for (int frame = 0; frame < 3; ++frame) ui.frame(state);
    REQUIRE(state.ui.canvas.follow.lineage);
    const Rect canvas = *state.ui.elements.find("canvas");
    CAPTURE(canvas.h);
    CHECK(canvas.h < 400.0f);  // the short canvas this is about
    MESSAGE("result cell " << state.ui.canvas.result_cell);
    CHECK(state.ui.canvas.result_cell >= 10.0f);
}
