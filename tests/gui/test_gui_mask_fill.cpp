// Issue 21 item 5: a finite mask fill (-1e20, finfo.min) is drawn and described as what it
// is. Its cells are hatched and counted as masked like -inf; the formula, the explanation
// and the legend quote the fill in use; a fully masked row is said to be uniform, not zeros;
// the float32-difference view labels no cell "-inf".
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>

#include "app/gui/display/display_model.h"
#include "app/gui/display/weight_focus.h"
#include "app/text/languages.h"
#include "app/text/step_text.h"
#include "core/attention.h"
#include "core/masked_score.h"
#include "core/recipe.h"
#include "tests/gui/headless_imgui.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;
using namespace attn::test_configs;

namespace {

const StepDisplay& display_of(const DisplayModel& m, const Trace& t, StepId id) {
    const int i = t.index_of(id);
    REQUIRE(i >= 0);
    return m.steps[static_cast<size_t>(i)];
}

AttentionConfig causal_with_fill(const char* fill) {
    AttentionConfig c = sized(5, 4, 2);
    c.mask = MaskKind::Causal;
    c.mask_fill = parse_mask_fill(fill).value();
    return c;
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

}  // namespace

TEST_CASE("masked scores are hatched and counted whatever the fill: -inf, -1e20, finfo.min") {
    for (const char* fill : {"-inf", "-1e20", "min"}) {
        for (const bool mask_first : {false, true}) {
            CAPTURE(std::string(fill));
            CAPTURE(mask_first);
            AttentionConfig c = causal_with_fill(fill);
            c.mask_before_scale = mask_first;  // the scaled step then holds the fill times 1/sqrt(d_h)
            Result<Trace> traced = run_attention(c);
            REQUIRE(traced.ok());
            const Trace& t = traced.value();
            const DisplayModel m = build_display_model(t, {}, {}, 0);
            std::vector<StepId> masked_steps{StepId::AttnMasked};
            if (mask_first) masked_steps.push_back(StepId::AttnScaled);
            for (const StepId id : masked_steps) {
                CAPTURE(step_name(id));
                const StepDisplay& sd = display_of(m, t, id);
                CHECK(sd.masked_cells == 2 * 10);  // 10 cells above the diagonal of 5x5, in 2 heads
                const Panel& head = sd.panels.front();
                for (int i = 0; i < head.rows; ++i) {
                    for (int j = 0; j < head.cols; ++j) {
                        CAPTURE(i);
                        CAPTURE(j);
                        const float marked = head.values[static_cast<size_t>(i * head.cols + j)];
                        // The texture marks a hidden key -inf (hatched); the number stays the tensor's.
                        CHECK((std::isinf(marked) && marked < 0) == (j > i));
                        if (j > i && id == StepId::AttnMasked)
                            CHECK(cell_value(t.steps[static_cast<size_t>(sd.step)].tensor, head, i, j) ==
                                  masked_score_fill(c.mask_spec().fill, c.dtype));
                    }
                }
            }
            // After the softmax the zero weights of hidden keys are marked too (faint hatch).
            CHECK(display_of(m, t, StepId::AttnWeights).masked_zero_cells == 2 * 10);
        }
    }
}

TEST_CASE("how peaked counts only the keys a query sees, also with a finite fill") {
    const std::vector<float> weights{0.5f, 0.5f, 0.0f, 0.0f};
    const std::vector<float> scores{0.1f, 0.1f, -1e20f, -1e20f};
    const RowFocus row = row_focus(weights.data(), scores.data(), 4, -1e20f);
    CHECK(row.keys == 2);
    CHECK(row.entropy == doctest::Approx(1.0f));  // uniform over the two keys it may see
}

TEST_CASE("the mask step's formula and explanation quote the fill in use, in every language") {
    const text::Catalogue& en = text::english();
    SUBCASE("-inf: zeros for a fully masked row") {
        const text::StepText words = text::describe_step(StepId::AttnMasked, causal_with_fill("-inf"), en);
        CHECK(words.formula == "scores[mask] = -inf");
        CHECK(contains(words.explanation, en.text("step.attn_masked.explanation")));
    }
    SUBCASE("-1e20 and finfo.min: the number, and uniform fully masked rows") {
        struct Case {
            const char* fill;
            const char* shown;
        };
        for (const Case& k : {Case{"-1e20", "-1e20"}, Case{"min", "-3.403e+38"}}) {
            CAPTURE(std::string(k.fill));
            const AttentionConfig c = causal_with_fill(k.fill);
            const text::StepText words = text::describe_step(StepId::AttnMasked, c, en);
            CHECK(contains(words.formula, k.shown));
            CHECK_FALSE(contains(words.formula, "-inf"));
            CHECK(contains(words.explanation, k.shown));
            CHECK(contains(words.explanation, "1/5"));  // S = 5 keys
            CHECK_FALSE(contains(words.explanation, en.text("step.attn_masked.explanation")));
            for (const char* code : {"zh-Hans", "zh-Hant"}) {
                CAPTURE(std::string(code));
                const text::Catalogue* zh = text::find_language(code);
                REQUIRE(zh);
                const text::StepText zh_words = text::describe_step(StepId::AttnMasked, c, *zh);
                CHECK(contains(zh_words.formula, k.shown));
                CHECK(contains(zh_words.explanation, "1/5"));
            }
        }
    }
    SUBCASE("a nearer number: masked keys keep a small weight") {
        const text::StepText words = text::describe_step(StepId::AttnMasked, causal_with_fill("-5"), en);
        CHECK(contains(words.formula, "= -5"));
        CHECK(contains(words.explanation, "e^(-5 - m)"));
    }
}

TEST_CASE("the legend names the fill of llama and interview-mha and no cell reads -inf") {
    struct Case {
        const char* recipe;
        const char* fill;  // as the legend prints it (2 significant digits)
    };
    for (const Case& k : {Case{"llama", "-3.4e+38"}, Case{"interview-mha", "-1e+20"}}) {
        CAPTURE(std::string(k.recipe));
        HeadlessImGui imgui(1600, 1000);
        AppState state = state_for(find_recipe(k.recipe)->config);
        REQUIRE(state.results.trace);
        state.settings.hint_seen = true;
        state.ui.playback.set_position(state.results.trace->index_of(StepId::AttnMasked), 1.0f);
        imgui.frame(state);
        imgui.frame(state);
        const std::string canvas = drawn_text("Canvas");
        CHECK(shows(canvas, text::trf("canvas.legend.masked", {{"fill", k.fill}})));
        CHECK_FALSE(shows(canvas, "-inf"));
        CHECK(state.results.model->steps[static_cast<size_t>(state.ui.playback.step())].masked_cells > 0);
    }
}

TEST_CASE("the float32-difference view labels no masked cell -inf") {
    for (const char* fill : {"-inf", "-1e20"}) {
        CAPTURE(std::string(fill));
        HeadlessImGui imgui(1600, 1000);
        AppState state;
        ComputeRequest request;
        request.config = in_dtype(causal_with_fill(fill), DType::BFloat16);
        request.max_extent = 256;
        request.colour_scale.difference_from_float32 = true;
        const ComputeResult diff = ComputeWorker::compute(request, 1);
        REQUIRE(diff.error.empty());
        state.session.config = request.config;
        state.settings.difference_from_float32 = true;
        state.settings.hint_seen = true;
        accept_result(state, diff, 0.0);
        state.ui.playback.set_position(state.results.trace->index_of(StepId::AttnMasked), 1.0f);
        ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
        imgui.frame(state);
        imgui.frame(state);
        const std::string canvas = drawn_text("Canvas");
        REQUIRE(state.results.model->colour_scale.difference_from_float32);
        CHECK(shows(canvas, text::tr("canvas.legend.masked_both")));
        // A difference |x - x_fp32| is never negative; a key masked in both runs has none.
        CHECK_FALSE(shows(canvas, "-inf"));
        CHECK(state.results.model->steps[static_cast<size_t>(state.ui.playback.step())].masked_cells > 0);
    }
}
