// View > Difference from float32 (fp32_difference.h): with a bfloat16 or float16
// configuration the worker's trace holds |x - x_fp32| for every step, checked here
// against two plain runs of the same problem; each step gets its own 0..largest colour
// scale, masked cells stay masked, and every step draws (canvas, legend, inspector).
#include <doctest/doctest.h>

#include <cfloat>
#include <cmath>

#include "app/gui/display/format.h"
#include "app/gui/display/fp32_difference.h"
#include "app/text/languages.h"
#include "tests/gui/headless_imgui.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;
using namespace attn::test_configs;

namespace {

ComputeResult run(const AttentionConfig& c, bool difference) {
    ComputeRequest request;
    request.config = c;
    request.max_extent = 256;
    request.colour_scale.difference_from_float32 = difference;
    return ComputeWorker::compute(request, 1);
}

}  // namespace

TEST_CASE("the difference trace holds |x - x_fp32| of every step, masked cells stay masked") {
    for (DType dtype : {DType::BFloat16, DType::Float16}) {
        CAPTURE(to_string(dtype));
        const AttentionConfig c = in_dtype(rotated(causal(sized(5, 16, 2))), dtype);
        const ComputeResult diff = run(c, true);
        REQUIRE(diff.error.empty());
        AttentionConfig c32 = c;
        c32.dtype = DType::Float32;
        const ComputeResult lowered = run(c, false), fp32 = run(c32, false);
        REQUIRE(lowered.trace);
        REQUIRE(fp32.trace);
        CHECK(diff.model->colour_scale.difference_from_float32);
        REQUIRE(diff.trace->steps.size() == lowered.trace->steps.size());
        float largest_scores = 0;
        for (size_t i = 0; i < diff.trace->steps.size(); ++i) {
            const Step& d = diff.trace->steps[i];
            CAPTURE(d.name());
            const std::vector<float> got = d.tensor.to_vector(), a = lowered.trace->steps[i].tensor.to_vector(),
                                     b = fp32.trace->steps[i].tensor.to_vector();
            REQUIRE(got.size() == a.size());
            for (size_t k = 0; k < got.size(); ++k) {
                if (std::isinf(a[k]) && std::isinf(b[k])) {
                    CHECK(std::isinf(got[k]));  // masked in both: drawn as masked
                    continue;
                }
                CHECK(got[k] == std::fabs(a[k] - b[k]));
            }
            const StepDisplay& sd = diff.model->steps[i];
            CHECK(sd.colormap == ColormapKind::Sequential);
            CHECK(sd.vmin == 0.0f);
            CHECK(sd.vmax >= sd.data_max);
            if (d.id == StepId::AttnScores) largest_scores = sd.data_max;
        }
        // Rounding shows: the scores of a bf16/f16 forward are not those of float32.
        CHECK(largest_scores > 0.0f);
        // The views still share their base's storage.
        const Trace& t = *diff.trace;
        CHECK(t.find(StepId::QSplit)->tensor.shares_storage_with(t.find(StepId::Q)->tensor));
    }
}

TEST_CASE("a float32 configuration has nothing to compare: the plain trace comes back") {
    const ComputeResult r = run(in_dtype(rotated(causal(sized(5, 16, 2))), DType::Float32), true);
    REQUIRE(r.error.empty());
    CHECK_FALSE(r.model->colour_scale.difference_from_float32);
    CHECK(r.trace->find(StepId::AttnWeights)->tensor.at({0, 0, 4, 0}) > 0.0f);  // a weight, not a difference
}

TEST_CASE("every step of a difference trace draws, with the largest difference in the legend") {
    HeadlessImGui imgui(1280, 800);
    AppState state;
    const ComputeResult diff = run(in_dtype(rotated(causal(sized(5, 16, 2))), DType::BFloat16), true);
    REQUIRE(diff.error.empty());
    state.session.config = in_dtype(rotated(causal(sized(5, 16, 2))), DType::BFloat16);
    state.settings.difference_from_float32 = true;
    state.settings.hint_seen = true;
    accept_result(state, diff, 0.0);
    const int n = state.ui.playback.step_count();
    for (int step = 0; step < n; ++step) {
        CAPTURE(step);
        state.ui.playback.set_position(step, 1.0f);
        ImGui::GetIO().MousePos = ImVec2(-FLT_MAX, -FLT_MAX);
        imgui.frame(state);
        const std::string canvas = drawn_text("Canvas");
        const StepDisplay& sd = state.results.model->steps[static_cast<size_t>(step)];
        CHECK(shows(canvas, text::trf("canvas.legend.difference", {{"max", format_value(sd.vmax)}})));
        CHECK(shows(canvas, text::trf("canvas.notice_difference", {{"dtype", "bfloat16"}})));
        // The inspector on a cell says what the number is, without explaining a rule.
        state.ui.canvas.pinned = CellRef{step, 0, 0, 0};
        imgui.frame(state);
        CHECK(shows(drawn_text(text::label("window.inspector")), text::tr("inspector.difference_from_float32")));
        state.ui.canvas.pinned = CellRef{};
    }
}
