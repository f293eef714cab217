// The inspector, headless: hover and pin cells of every step and read back what it drew
// (ImGui's log captures every text item), checked against the core's explain_cell.
#include <doctest/doctest.h>

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <string>

#include "app/gui/compute/compute_worker.h"
#include "tests/catalogue_words.h"
#include "tests/gui/headless_imgui.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/gui/display/format.h"
#include "app/gui/display/projection.h"
#include "app/gui/views/inspector/view_inspector.h"
#include "app/text/languages.h"
#include "core/explain_cell.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using attn::gui::testing::state_for;
using attn::gui::testing::state_for_model;
using attn::testing::opening;
using attn::testing::words_before;
using attn::test_configs::sized;

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
        CanvasUi canvas = state.ui.canvas;  // Follow writes the copy
        draw_inspector(state.results, canvas, state.ui.playback.step());
        const std::string text = ImGui::GetCurrentContext()->LogBuffer.c_str();
        ImGui::LogFinish();
        ImGui::End();
        ImGui::Render();
        return text;
    }
};

// `part` in `text`, also when the inspector wrapped it over lines (breaks are at spaces).
bool has(const std::string& text, const std::string& part) {
    std::string joined = text;
    std::replace(joined.begin(), joined.end(), '\n', ' ');
    return text.find(part) != std::string::npos || joined.find(part) != std::string::npos;
}

// What the inspector must show for `e`: the value, and the numbers the rule is made of.
void check_drawn(const std::string& text, const std::string& name, const CellExplanation& e) {
    CHECK(has(text, name + "["));
    CHECK(has(text, "= " + format_value(e.value)));
    switch (e.rule) {
        case CellRule::Given:
        case CellRule::Parameter:
            REQUIRE_FALSE(e.flows.empty());
            for (const StepCells& flow : e.flows)
                CHECK(has(text, text::trf("inspector.flows.cells", {{"step", step_name(flow.step)}, {"cells", flow.cells.size()}})));
            if (e.cell.kind == CellAddress::Kind::Step && e.cell.step == StepId::Tokens) CHECK(has(text, opening("inspector.tokens", {{"id", format_value(e.value)}})));
            break;
        case CellRule::DotProduct:
            for (const Term& t : e.terms) CHECK(has(text, format_value(t.value)));
            CHECK(has(text, text::trf("inspector.sum", {{"value", format_value(static_cast<float>(e.sum))}})));
            if (e.omitted_terms > 0) CHECK(has(text, opening("inspector.more_terms", {{"terms", e.omitted_terms}})));
            if (e.has_bias) CHECK(has(text, format_value(e.bias)));
            break;
        case CellRule::Scale: CHECK(has(text, format_value(e.factor))); break;
        case CellRule::MaskKept: CHECK(has(text, e.extra_key == ExtraKeyKind::None ? text::tr("inspector.mask.allowed") : opening("inspector.mask.extra_key"))); break;
        case CellRule::MaskAdded: CHECK(has(text, opening("inspector.mask.added", {{"addend", format_value(e.mask_addend)}}))); break;
        case CellRule::MaskFilled: CHECK(has(text, opening(std::isinf(e.mask_fill) ? "inspector.mask.filled_inf" : "inspector.mask.filled_finite"))); CHECK(has(text, format_value(e.mask_fill))); break;
        case CellRule::Softmax:
            CHECK(has(text, words_before("inspector.softmax.row", "max") + format_value(e.row_max)));
            CHECK(has(text, words_before("inspector.softmax.row", "sum") + format_value(e.exp_sum)));
            for (const Term& t : e.terms) CHECK(has(text, format_value(t.value)));
            if (e.row_fully_masked) CHECK(has(text, opening("inspector.softmax.uniform")));
            break;
        case CellRule::FullyMaskedRow: CHECK(has(text, text::trf("inspector.fully_masked_row", {{"row", e.cell.index[2]}}))); break;
        case CellRule::Cached:
            CHECK(has(text, text::trf("inspector.cached", {{"position", e.cached_position}, {"first", e.block_first}})));
            break;
        case CellRule::DropoutKept: CHECK(has(text, opening("inspector.dropout.kept"))); break;
        case CellRule::DropoutDropped: CHECK(has(text, opening("inspector.dropout.dropped"))); break;
        case CellRule::Move: CHECK(has(text, words_before(e.is_view ? "inspector.same_number.view" : "inspector.same_number.copy", "source") + step_name(e.operand.step))); break;
        case CellRule::ExtraKey:
            CHECK(has(text, e.extra_key == ExtraKeyKind::BiasKv ? "[" + std::to_string(e.cell.index[2]) + "] = " + format_value(e.value)
                                                                : std::string("add_zero_attn")));
            break;
        case CellRule::RopeAngle:
            CHECK(has(text, "= " + format_value(e.rope.angle) + " rad"));
            CHECK(has(text, (e.rope.sine ? "sin(" : "cos(") + format_value(e.rope.angle) + ") = " + format_value(e.value)));
            break;
        case CellRule::Rotation:
            REQUIRE(e.terms.size() == 2);
            CHECK(has(text, "= " + format_value(e.terms[0].value)));
            CHECK(has(text, "= " + format_value(e.terms[1].value)));
            CHECK(has(text, text::trf("inspector.sum", {{"value", format_value(static_cast<float>(e.sum))}})));
            CHECK(has(text, opening("inspector.rope.rotation", {{"column", e.cell.index[3]}, {"partner", e.rope.partner}})));
            break;
        case CellRule::Repeat: CHECK(has(text, words_before("inspector.repeat", "kv_head") + std::to_string(e.kv_head))); break;
        case CellRule::Mean:
            for (const Term& t : e.terms) CHECK(has(text, format_value(t.a_value)));
            CHECK(has(text, "/ " + std::to_string(e.divisor) + " = " + format_value(e.value)));
            break;
        case CellRule::Lookup:
            CHECK(has(text, e.lookup.table == LookupTable::Token ? words_before("inspector.lookup.token", "rows")
                                                                 : words_before("inspector.lookup.position", "rows")));
            break;
        case CellRule::Add:
            CHECK(has(text, format_value(e.operand_value) + " (" + step_name(e.operand.step) + ") + " + format_value(e.operand2_value)));
            break;
        case CellRule::Norm:
            if (std::isnan(e.norm.beta)) {  // RMSNorm (tiny-llama): the mean of squares, no mean, no beta
                CHECK(has(text, words_before("inspector.norm.rms.stats", "mean_square") + format_value(static_cast<float>(e.norm.variance))));
                CHECK(has(text, words_before("inspector.norm.rms.affine", "gamma") + format_value(e.norm.gamma) +
                                words_before("inspector.norm.rms.affine", "value") + format_value(e.value)));
                CHECK_FALSE(has(text, words_before("inspector.norm.affine", "beta")));
                CHECK_FALSE(has(text, words_before("inspector.norm.stats", "row")));  // "LayerNorm of row"
                break;
            }
            CHECK(has(text, "mean " + format_value(static_cast<float>(e.norm.mean))));
            CHECK(has(text, words_before("inspector.norm.affine", "gamma") + format_value(e.norm.gamma) + words_before("inspector.norm.affine", "beta") +
                            format_value(e.norm.beta)));
            break;
        case CellRule::Prediction:
            CHECK(has(text, words_before("inspector.prediction.row", "max") + format_value(e.row_max)));
            CHECK(has(text, "/ " + format_value(e.exp_sum) + " = " + format_value(e.value)));
            for (const Term& t : e.terms) CHECK(has(text, format_value(t.value)));
            break;
        case CellRule::Argmax:
            CHECK(has(text, opening("inspector.argmax", {{"row", e.cell.index[1]}})));
            for (const Term& t : e.terms) CHECK(has(text, format_value(t.a_value)));
            break;
        case CellRule::PreviousLayer:
            CHECK(has(text, opening(e.previous_has_mlp ? "inspector.previous_layer.mlp" : "inspector.previous_layer", {{"layer", e.previous_layer}})));
            CHECK(has(text, format_value(e.operand_value)));
            for (const StepCells& flow : e.flows) CHECK(has(text, std::string("-> ") + step_name(flow.step)));
            break;
    }
    // The --dtype rounding is named where an op rounded the value.
    const bool op_rounded = e.rule == CellRule::DotProduct || e.rule == CellRule::Scale || e.rule == CellRule::Softmax ||
                            e.rule == CellRule::Rotation || e.rule == CellRule::Mean || e.rule == CellRule::MaskFilled;
    if (e.dtype != DType::Float32 && op_rounded) CHECK(has(text, text::trf("inspector.dtype_rounding", {{"dtype", to_string(e.dtype)}})));
    if (e.rule == CellRule::MaskKept || e.rule == CellRule::Move) CHECK_FALSE(has(text, opening("inspector.dtype_rounding")));
    // The highlighted cells are counted on screen, step by step.
    if (e.rule != CellRule::Given && e.rule != CellRule::Parameter)
        for (const StepCells& h : e.highlights) CHECK(has(text, std::to_string(h.cells.size()) + " of " + step_name(h.step)));
}

// Hovers the first and last cell of every panel of every step, then pins one of each
// step while the playback shows another step.
void inspect_every_step(AppState state) {
    InspectorHarness imgui;
    REQUIRE(state.results.trace);
    const AttentionConfig& c = state.results.trace->config;
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
                if (ref.part == CellRef::Part::Bias && !explain_cell(trace, address).valid) continue;  // no bias
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
        CHECK(has(pinned, text::trf("inspector.pinned_elsewhere", {{"step", s + 1}})));
        check_drawn(pinned, name, explain_cell(trace, CellAddress::of_step(step.id, cell_index(sd.panels[0], 0, 0))));
        state.ui.canvas.pinned = CellRef{};
    }
    CHECK(inspected >= 3 * static_cast<int>(trace.steps.size()));
    // Nothing hovered or pinned: the hint.
    CHECK(has(imgui.draw(state), text::tr("inspector.hover_hint")));
}

}  // namespace

TEST_CASE("the inspector draws the core's explanation of hovered and pinned cells of every step") {
    AttentionConfig c = sized(5, 6, 3);
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
    inspect_every_step(state_for(c));
}

TEST_CASE("the inspector draws the articles' option rules: RoPE, repeat_kv, head mean, extra keys, masks and scales, bf16") {
    AttentionConfig c = sized(5, 8, 4);
    SUBCASE("rope, GQA, averaged weights, causal + window, bfloat16") {
        c.rope = true;
        c.position_offset = 2;
        c.num_kv_heads = 2;
        c.average_weights = true;
        c.mask_presets = parse_mask_presets("causal,window").value();
        c.window = 2;
        c.dtype = DType::BFloat16;
    }
    SUBCASE("extra key columns, left padding with valid length 0, the -1e20 fill, mask before scale, scale hidden") {
        c.batch = 2;
        c.add_bias_kv = true;
        c.add_zero_attn = true;
        c.mask_presets = parse_mask_presets("left-padding").value();
        c.valid_lengths = {3, 0};
        c.mask_fill = parse_mask_fill("-1e20").value();
        c.mask_before_scale = true;
        c.scale.kind = ScaleKind::Hidden;
        c.no_out_proj = true;
    }
    SUBCASE("rope interleaved, padding 0 with -inf, --scale none") {
        c.rope = true;
        c.rope_style = RopeStyle::Interleaved;
        c.mask = MaskKind::Padding;
        c.valid_lengths = {0};
        c.scale.kind = ScaleKind::None;
    }
    inspect_every_step(state_for(c));
}

TEST_CASE("the inspector draws every step of the trained models: lookups, norm, residual, predictions, a later layer") {
    SUBCASE("tiny-lm layer 0") { inspect_every_step(state_for_model("tiny-lm", 0)); }
    SUBCASE("tiny-lm layer 1") { inspect_every_step(state_for_model("tiny-lm", 1)); }
    SUBCASE("reverse") { inspect_every_step(state_for_model("reverse", 0)); }
    SUBCASE("sort") { inspect_every_step(state_for_model("sort", 0)); }
    SUBCASE("tiny-llama layer 0 (RMSNorm)") { inspect_every_step(state_for_model("tiny-llama", 0)); }
}

TEST_CASE("a cell of the next-word distribution names its row's token and its column's word") {
    AppState state = state_for_model("tiny-lm", 0);
    InspectorHarness imgui;
    const Trace& trace = *state.results.trace;
    const int s = trace.index_of(StepId::NextTokenProbs);
    REQUIRE(s >= 0);
    state.ui.playback.set_position(s, 1.0f);
    const std::vector<std::string>& words = trace.model.vocabulary;
    const int column = static_cast<int>(words.size()) - 1;
    state.ui.canvas.hovered = CellRef{s, 0, 1, column};
    const std::string text = imgui.draw(state);
    CHECK(has(text, "V=" + std::to_string(column) + " '" + words.back() + "'"));
    CHECK(has(text, "L=1 '" + state.results.query_tokens[1] + "'"));
}

// Issue 28 item 23: the Unfollow button showed Follow's tooltip.
TEST_CASE("the inspector's Unfollow button explains unfollowing, not following") {
    InspectorHarness h;
    AppState state = state_for(sized(4, 8, 2));
    state.ui.canvas.pinned = CellRef{state.results.trace->index_of(StepId::AttnWeights), 0, 1, 1};
    state.ui.canvas.follow.cell = state.ui.canvas.pinned;
    h.draw(state);
    const ImGuiWindow* window = ImGui::FindWindowByName("Inspector");
    REQUIRE(window);
    const std::string follow_tip = english(Message("follow.follow.tip")), unfollow_tip = english(Message("follow.unfollow.tip"));
    // The mouse over the inspector's top, line by line, until the button's tooltip shows.
    bool shown = false;
    for (float y = window->Pos.y; y < window->Pos.y + 240.0f && !shown; y += 4.0f)
        for (float x = window->Pos.x + 10.0f; x < window->Pos.x + 90.0f && !shown; x += 16.0f) {
            ImGui::GetIO().MousePos = ImVec2(x, y);
            h.draw(state);
            h.draw(state);  // hovering is known from the frame before
            std::string tip;  // the tooltip window's text, spaces left out
            for (const ImGuiWindow* w : GImGui->Windows)
                if (w->Active && (w->Flags & ImGuiWindowFlags_Tooltip)) tip += attn::gui::testing::text_of(*w->DrawList);
            CHECK_FALSE(attn::gui::testing::shows(tip, follow_tip));
            shown = attn::gui::testing::shows(tip, unfollow_tip);
        }
    CHECK(shown);
    ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
}
