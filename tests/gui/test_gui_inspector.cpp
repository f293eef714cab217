// The inspector, headless: hover and pin cells of every step and read back what it drew
// (ImGui's log captures every text item), checked against the core's explain_cell.
#include <doctest/doctest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <string>

#include "app/gui/compute_worker.h"
#include "tests/gui/headless_imgui.h"
#include "app/gui/fonts_theme.h"
#include "app/gui/format.h"
#include "app/gui/projection.h"
#include "app/gui/views/view_inspector.h"
#include "core/explain_cell.h"

using namespace attn;
using namespace attn::gui;
using attn::gui::testing::state_for;

namespace {

struct InspectorHarness {
    ImGuiContext* ctx;
    InspectorHarness() : ctx(ImGui::CreateContext()) {
        ImGuiIO& io = ImGui::GetIO();
        io.IniFilename = nullptr;
        io.DisplaySize = ImVec2(1280, 800);
        io.DeltaTime = 1.0f / 60.0f;
        load_fonts(1.0f);
        unsigned char* pixels = nullptr;
        int w = 0, h = 0;
        io.Fonts->GetTexDataAsRGBA32(&pixels, &w, &h);
        apply_theme(false, 1.0f);
    }
    ~InspectorHarness() { ImGui::DestroyContext(ctx); }
    InspectorHarness(const InspectorHarness&) = delete;
    InspectorHarness& operator=(const InspectorHarness&) = delete;

    // One frame with the inspector in a window; returns every text it drew.
    std::string draw(const AppState& state) {
        ImGui::NewFrame();
        ImGui::SetNextWindowSize(ImVec2(420, 760));
        ImGui::Begin("Inspector");
        ImGui::LogToBuffer();
        draw_inspector(state.results, state.ui.canvas, state.ui.playback.step());
        const std::string text = ImGui::GetCurrentContext()->LogBuffer.c_str();
        ImGui::LogFinish();
        ImGui::End();
        ImGui::Render();
        return text;
    }
};

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// What the inspector must show for `e`: the value, and the numbers the rule is made of.
void check_drawn(const std::string& text, const std::string& name, const CellExplanation& e) {
    CHECK(has(text, name + "["));
    CHECK(has(text, "= " + format_value(e.value)));
    switch (e.rule) {
        case CellRule::Given:
        case CellRule::Parameter:
            REQUIRE_FALSE(e.flows.empty());
            for (const StepCells& flow : e.flows)
                CHECK(has(text, std::string("-> ") + step_name(flow.step) + ": " + std::to_string(flow.cells.size()) + " cells read it"));
            break;
        case CellRule::DotProduct:
            for (const Term& t : e.terms) CHECK(has(text, format_value(t.value)));
            CHECK(has(text, "sum = " + format_value(static_cast<float>(e.sum))));
            if (e.omitted_terms > 0) CHECK(has(text, std::to_string(e.omitted_terms) + " more terms"));
            if (e.has_bias) CHECK(has(text, format_value(e.bias)));
            break;
        case CellRule::Scale: CHECK(has(text, format_value(e.factor))); break;
        case CellRule::MaskKept: CHECK(has(text, "allowed")); break;
        case CellRule::MaskFilled: CHECK(has(text, "masked: key")); break;
        case CellRule::Softmax:
            CHECK(has(text, "row max " + format_value(e.row_max)));
            CHECK(has(text, "row sum " + format_value(e.exp_sum)));
            for (const Term& t : e.terms) CHECK(has(text, format_value(t.value)));
            break;
        case CellRule::FullyMaskedRow: CHECK(text.size() > 40); break;
        case CellRule::NotExplained: FAIL("every attention step is explained"); break;
        case CellRule::DropoutKept: CHECK(has(text, "kept")); break;
        case CellRule::DropoutDropped: CHECK(has(text, "dropped")); break;
        case CellRule::Move: CHECK(has(text, std::string("the same number as in ") + step_name(e.operand.step))); break;
    }
    // The highlighted cells are counted on screen, step by step.
    if (e.rule != CellRule::Given && e.rule != CellRule::Parameter)
        for (const StepCells& h : e.highlights) CHECK(has(text, std::to_string(h.cells.size()) + " of " + step_name(h.step)));
}

// Hovers the first and last cell of every panel of every step, then pins one of each
// step while the playback shows another step.
void inspect_every_step(const AttentionConfig& c) {
    InspectorHarness imgui;
    AppState state = state_for(c);
    REQUIRE(state.results.trace);
    const Trace& trace = *state.results.trace;
    int inspected = 0;
    for (int s = 0; s < static_cast<int>(state.results.model->steps.size()); ++s) {
        const Step& step = trace.steps[static_cast<size_t>(s)];
        const std::string name = step.name();
        CAPTURE(name);
        state.ui.playback.set_position(s, 1.0f);
        const StepDisplay& sd = state.results.model->steps[static_cast<size_t>(s)];
        for (int p = 0; p < static_cast<int>(sd.panels.size()); ++p) {
            const Panel& panel = sd.panels[static_cast<size_t>(p)];
            for (const auto& rc : {std::pair<int, int>{0, 0}, {panel.rows - 1, panel.cols - 1}, {panel.rows / 2, 0}}) {
                CAPTURE(rc.first);
                CAPTURE(rc.second);
                state.ui.canvas.hovered = CellRef{s, p, rc.first, rc.second};
                const std::string text = imgui.draw(state);
                const CellExplanation e =
                    explain_cell(trace, CellAddress::of_step(step.id, cell_index(panel, rc.first, rc.second)));
                REQUIRE(e.valid);
                check_drawn(text, name, e);
                ++inspected;
            }
        }
        // A projection's X, W^T and b cells: where each number flows.
        if (step.kind == StepKind::Projection) {
            const Panel& panel = sd.panels.back();
            const int64_t feature = panel_first_feature(sd, panel, c.head_dim()) + panel.cols - 1;
            const int64_t in = trace.find(step.primary_source())->tensor.dim(2);
            const std::pair<CellRef, CellAddress> operands[] = {
                {CellRef{s, static_cast<int>(sd.panels.size()) - 1, 1, 2, CellRef::Part::Input},
                 CellAddress::of_step(step.primary_source(), {0, 1, 2})},
                {CellRef{s, static_cast<int>(sd.panels.size()) - 1, static_cast<int>(in - 1), panel.cols - 1, CellRef::Part::Weight},
                 CellAddress::of_weight(step.provenance.weight, feature, in - 1)},
                {CellRef{s, static_cast<int>(sd.panels.size()) - 1, 0, panel.cols - 1, CellRef::Part::Bias},
                 CellAddress::of_bias(step.provenance.weight, feature)},
            };
            for (const auto& [ref, address] : operands) {
                if (ref.part == CellRef::Part::Bias && !c.bias) continue;
                state.ui.canvas.hovered = ref;
                const std::string text = imgui.draw(state);
                const CellExplanation e = explain_cell(trace, address);
                REQUIRE(e.valid);
                const std::string shown = ref.part == CellRef::Part::Input  ? step_name(step.primary_source())
                                          : ref.part == CellRef::Part::Weight ? weight_symbol(step.provenance.weight)
                                                                              : bias_symbol(step.provenance.weight);
                check_drawn(text, shown, e);
                ++inspected;
            }
        }
        // Pinned, seen from the first step: the inspector says so and still explains it.
        state.ui.canvas.hovered = CellRef{};
        state.ui.canvas.pinned = CellRef{s, 0, 0, 0};
        state.ui.playback.set_position(s == 0 ? 1 : 0, 1.0f);
        const std::string pinned = imgui.draw(state);
        CHECK(has(pinned, "pinned in step " + std::to_string(s + 1)));
        check_drawn(pinned, name, explain_cell(trace, CellAddress::of_step(step.id, cell_index(sd.panels[0], 0, 0))));
        state.ui.canvas.pinned = CellRef{};
    }
    CHECK(inspected >= 3 * static_cast<int>(trace.steps.size()));
    // Nothing hovered or pinned: the hint.
    CHECK(has(imgui.draw(state), "Hover a cell"));
}

}  // namespace

TEST_CASE("the inspector draws the core's explanation of hovered and pinned cells of every step") {
    AttentionConfig c;
    c.seq_len = 5;
    c.hidden_dim = 6;
    c.num_heads = 3;
    SUBCASE("split, causal, dropout") {
        c.mask = MaskKind::Causal;
        c.dropout = 0.4f;
    }
    SUBCASE("fused, padding") {
        c.variant = Variant::Fused;
        c.mask = MaskKind::Padding;
        c.valid_lengths = {3};
    }
    SUBCASE("stacked, no bias") {
        c.variant = Variant::Stacked;
        c.bias = false;
    }
    SUBCASE("cross") {
        c.kv_len = 4;
        c.kdim = 5;
        c.vdim = 7;
    }
    SUBCASE("wide: terms summarised") {
        c.hidden_dim = 64;
        c.num_heads = 2;
        c.seq_len = 24;
    }
    inspect_every_step(c);
}
