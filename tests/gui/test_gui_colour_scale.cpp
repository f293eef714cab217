#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "app/gui/display/colormap.h"
#include "app/gui/display/display_model.h"
#include "app/io/model_problem.h"
#include "core/attention.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using attn::test_configs::sized;

namespace {

Trace dropout_trace() {
    AttentionConfig c = sized(6, 8, 2);
    c.dropout = 0.3f;
    Result<Trace> t = run_attention(c);
    REQUIRE_MESSAGE(t.ok(), t.error());
    return std::move(t.value());
}

const StepDisplay& shown(const DisplayModel& m, const Trace& t, StepId id) {
    const int i = t.index_of(id);
    REQUIRE(i >= 0);
    return m.steps[static_cast<size_t>(i)];
}

// Layer 0 of the trained language model on a short sentence.
Result<Trace> tiny_lm_trace() {
    Result<io::Problem> problem = io::build_model_problem("tiny-lm", 0, "the dog saw the cat");
    REQUIRE_MESSAGE(problem.ok(), problem.error());
    Result<Trace> t = io::compute_trace(problem.value());
    REQUIRE_MESSAGE(t.ok(), t.error());
    return t;
}

float extent(const StepDisplay& sd) { return std::max(std::fabs(sd.data_min), std::fabs(sd.data_max)); }

}  // namespace

TEST_CASE("by default weights are coloured on 0..1 even when every weight is small") {
    const Trace t = dropout_trace();
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    const StepDisplay& w = shown(m, t, StepId::AttnWeights);
    REQUIRE(w.data_max < 1.0f);  // seeded random weights: rows near uniform
    CHECK(w.vmin == 0.0f);
    CHECK(w.vmax >= 1.0f);
    CHECK_FALSE(w.stretched);
}

TEST_CASE("the head mean of the weights is a probability too: 0..1, not a signed scale") {
    AttentionConfig c = sized(5, 8, 2);
    c.average_weights = true;
    const Result<Trace> t = run_attention(c);
    REQUIRE_MESSAGE(t.ok(), t.error());
    const DisplayModel m = build_display_model(t.value(), {}, {}, 0);
    const StepDisplay& avg = shown(m, t.value(), StepId::AttnWeightsAvg);
    CHECK(avg.colormap == ColormapKind::Sequential);
    CHECK(avg.vmin == 0.0f);
    CHECK(avg.vmax >= 1.0f);
}

TEST_CASE("stretched probabilities run to each step's own maximum and say so") {
    const Trace t = dropout_trace();
    ColourScale scale;
    scale.stretch_probabilities = true;
    const DisplayModel m = build_display_model(t, {}, {}, 0, 512, kAllSteps, scale);
    const StepDisplay& w = shown(m, t, StepId::AttnWeights);
    const StepDisplay& d = shown(m, t, StepId::AttnDropped);
    CHECK(w.stretched);
    CHECK(w.vmin == 0.0f);
    CHECK(w.vmax == w.data_max);
    CHECK(d.vmax == d.data_max);
    CHECK(d.vmax > w.vmax);  // dropout's 1/(1-p) lifted the survivors
    // Signed steps are not affected by the probability option.
    const StepDisplay& scores = shown(m, t, StepId::AttnScores);
    CHECK_FALSE(scores.stretched);
    CHECK(scores.vmin == -scores.vmax);
}

TEST_CASE("one scale across steps puts every signed step on the same symmetric range") {
    const Trace t = dropout_trace();
    ColourScale scale;
    scale.one_scale_across_steps = true;
    const DisplayModel m = build_display_model(t, {}, {}, 0, 512, kAllSteps, scale);
    float largest = 0.0f;
    for (const StepDisplay& sd : m.steps)
        if (sd.colormap == ColormapKind::Diverging) largest = std::max(largest, extent(sd));
    for (size_t i = 0; i < m.steps.size(); ++i) {
        const StepDisplay& sd = m.steps[i];
        if (sd.colormap != ColormapKind::Diverging) continue;
        CAPTURE(i);
        CHECK(sd.vmax == largest);
        CHECK(sd.vmin == -largest);
    }
    // Without it the input keeps its own range, smaller than the largest one.
    const DisplayModel chains = build_display_model(t, {}, {}, 0);
    CHECK(shown(chains, t, StepId::Input).vmax <= largest);
    CHECK(m.colour_scale == scale);
}

TEST_CASE("stretched and one scale together give the dropout step and its source one top") {
    const Trace t = dropout_trace();
    ColourScale scale;
    scale.stretch_probabilities = true;
    scale.one_scale_across_steps = true;
    const DisplayModel m = build_display_model(t, {}, {}, 0, 512, kAllSteps, scale);
    const StepDisplay& w = shown(m, t, StepId::AttnWeights);
    const StepDisplay& d = shown(m, t, StepId::AttnDropped);
    CHECK(w.vmax == d.vmax);
    CHECK(w.vmax == std::max(w.data_max, d.data_max));
    CHECK(w.stretched);
}

TEST_CASE("token ids get one neutral colour: they name vocabulary rows, they are not amounts") {
    Result<Trace> t = tiny_lm_trace();
    const DisplayModel m = build_display_model(t.value(), {}, {}, 0);
    CHECK(shown(m, t.value(), StepId::Tokens).colormap == ColormapKind::Neutral);
    CHECK(shown(m, t.value(), StepId::TokenEmbedding).colormap == ColormapKind::Diverging);
    const Rgb low = sample_colormap(ColormapKind::Neutral, 0.0f), high = sample_colormap(ColormapKind::Neutral, 1.0f);
    CHECK(low.r == high.r);
    CHECK(low.g == high.g);
    CHECK(low.b == high.b);
}

TEST_CASE("the next-word distribution's columns are labelled with the vocabulary's words") {
    Result<Trace> t = tiny_lm_trace();
    const DisplayModel m = build_display_model(t.value(), {}, {}, 0);
    const StepDisplay& probs = shown(m, t.value(), StepId::NextTokenProbs);
    CHECK(probs.col_labels == AxisLabels::Vocabulary);
    CHECK(probs.row_labels == AxisLabels::QueryTokens);
    REQUIRE(probs.panels.size() == 1);
    CHECK(m.vocabulary.size() == static_cast<size_t>(probs.panels.front().cols));
    CHECK(m.vocabulary == t->model.vocabulary);
    // Steps that are not over the vocabulary keep their own labels.
    CHECK(shown(m, t.value(), StepId::TokenEmbedding).col_labels == AxisLabels::Indices);
}
