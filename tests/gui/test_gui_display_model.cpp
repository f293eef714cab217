#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "app/gui/display_model.h"
#include "core/attention.h"

using namespace attn;
using namespace attn::gui;

namespace {

Trace make_trace(int L, int E, int H, MaskKind mask = MaskKind::None, Variant variant = Variant::Split) {
    AttentionConfig c;
    c.seq_len = L;
    c.hidden_dim = E;
    c.num_heads = H;
    c.mask = mask;
    c.variant = variant;
    Result<Trace> t = run_attention(c);
    REQUIRE_MESSAGE(t.ok(), t.error());
    return std::move(t.value());
}

const StepDisplay& step_of(const DisplayModel& m, const Trace& t, const std::string& name) {
    const int i = t.index_of(parse_step_name(name).value());
    REQUIRE(i >= 0);
    return m.steps[static_cast<size_t>(i)];
}

}  // namespace

TEST_CASE("every step gets a display, heads-first tensors become small multiples") {
    const Trace t = make_trace(5, 6, 2);
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    REQUIRE(m.steps.size() == t.steps.size());
    const StepDisplay& scores = step_of(m, t, "attn_scores");
    CHECK(scores.arrangement == Arrangement::Grid);
    CHECK(scores.panels.size() == 2u);
    CHECK(scores.panels[1].head == 1);
    CHECK(scores.row_labels == AxisLabels::QueryTokens);
    CHECK(scores.col_labels == AxisLabels::KeyTokens);
    const StepDisplay& split = step_of(m, t, "q_split");
    CHECK(split.arrangement == Arrangement::ColumnGroups);
    CHECK_FALSE(split.joined);
    const StepDisplay& q = step_of(m, t, "q");
    CHECK(q.arrangement == Arrangement::ColumnGroups);
    CHECK(q.joined);
    CHECK(step_of(m, t, "input").arrangement == Arrangement::Single);
}

TEST_CASE("panel cells read the same numbers as the tensor, even through a transpose") {
    const Trace t = make_trace(4, 6, 3);
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    const int qi = t.index_of(attn::StepId::QHeads);
    const Step& step = t.steps[static_cast<size_t>(qi)];
    const StepDisplay& sd = m.steps[static_cast<size_t>(qi)];
    REQUIRE(!step.tensor.is_contiguous());
    for (const Panel& p : sd.panels) {
        for (int r = 0; r < p.rows; ++r) {
            for (int c = 0; c < p.cols; ++c) {
                CAPTURE(p.head);
                CAPTURE(r);
                CAPTURE(c);
                CHECK(p.values[static_cast<size_t>(r * p.cols + c)] == step.tensor.at({0, p.head, r, c}));
                CHECK(cell_value(step.tensor, p, r, c) == step.tensor.at({0, p.head, r, c}));
            }
        }
    }
}

TEST_CASE("views share a buffer id and the concatenation gets a new one") {
    const Trace t = make_trace(4, 6, 2);
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    const StepDisplay& q = step_of(m, t, "q");
    const StepDisplay& heads = step_of(m, t, "q_heads");
    CHECK(q.strip.buffer_id == heads.strip.buffer_id);
    CHECK(heads.strip.shares_with == "q");
    CHECK_FALSE(heads.strip.contiguous);
    const StepDisplay& context = step_of(m, t, "context");
    const StepDisplay& concat = step_of(m, t, "concat");
    CHECK(concat.strip.buffer_id != context.strip.buffer_id);
    CHECK(concat.strip.shares_with.empty());
}

TEST_CASE("the storage strip colours a transposed tensor's buffer like the original") {
    const Trace t = make_trace(3, 4, 2);
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    const StepDisplay& split = step_of(m, t, "q_split");
    const StepDisplay& heads = step_of(m, t, "q_heads");
    CHECK(split.strip.bins == heads.strip.bins);
    // (L=3, H=2, d_h=2): heads alternate every 2 floats in the buffer.
    REQUIRE(split.strip.bins.size() == 12u);
    CHECK(split.strip.bins[0] == 0);
    CHECK(split.strip.bins[2] == 1);
    // The transpose reads the buffer in another order: its second row starts 4 floats on.
    REQUIRE(heads.strip.first_positions.size() >= 3u);
    CHECK(heads.strip.first_positions[1] == 1);
    CHECK(heads.strip.first_positions[2] == 4);
}

TEST_CASE("probabilities use the sequential colormap and signed values a symmetric range") {
    const Trace t = make_trace(4, 4, 2);
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    const StepDisplay& w = step_of(m, t, "attn_weights");
    CHECK(w.colormap == ColormapKind::Sequential);
    CHECK(w.vmin == 0.0f);
    const StepDisplay& s = step_of(m, t, "attn_scores");
    CHECK(s.colormap == ColormapKind::Diverging);
    CHECK(s.vmin == -s.vmax);
}

TEST_CASE("dropout survivors and their source share one probability scale that starts at 0..1") {
    AttentionConfig c;
    c.seq_len = 6;
    c.hidden_dim = 6;
    c.num_heads = 2;
    c.dropout = 0.3f;
    Result<Trace> t = run_attention(c);
    REQUIRE(t.ok());
    const DisplayModel m = build_display_model(t.value(), {}, {}, 0);
    const StepDisplay& weights = step_of(m, t.value(), "attn_weights");
    const StepDisplay& dropped = step_of(m, t.value(), "attn_dropped");
    // Before: weights on 0..max(weights) and survivors on 0..max(survivors): the 1/(1-p)
    // rescale was invisible. Now one scale, at least 0..1.
    CHECK(weights.vmin == 0.0f);
    CHECK(weights.vmax == dropped.vmax);
    CHECK(weights.vmax >= 1.0f);
    CHECK(dropped.vmax >= dropped.data_max);
}

TEST_CASE("a step that moves or rescales values shares its source's symmetric scale") {
    const Trace t = make_trace(5, 6, 2);
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    const StepDisplay& q = step_of(m, t, "q");
    CHECK(step_of(m, t, "q_split").vmax == q.vmax);
    CHECK(step_of(m, t, "q_heads").vmax == q.vmax);
    const StepDisplay& scores = step_of(m, t, "attn_scores");
    const StepDisplay& scaled = step_of(m, t, "attn_scaled");
    CHECK(scaled.vmax == scores.vmax);
    CHECK(scaled.vmin == -scaled.vmax);
    const auto extent = [](const StepDisplay& sd) { return std::max(std::fabs(sd.data_min), std::fabs(sd.data_max)); };
    CHECK(extent(scaled) < extent(scores));  // the shrink shows as paler colours
    const StepDisplay& v = step_of(m, t, "v_heads");
    CHECK(step_of(m, t, "context").vmax == v.vmax);
    CHECK(step_of(m, t, "context").vmax >= step_of(m, t, "context").data_max);
}

TEST_CASE("masked cells are counted for the causal mask") {
    const Trace t = make_trace(4, 4, 2, MaskKind::Causal);
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    // 6 masked cells above the diagonal of a 4x4 map, in each of 2 heads.
    CHECK(step_of(m, t, "attn_masked").masked_cells == 12);
}

TEST_CASE("big maps are pooled keeping the strongest value, and -inf only when all are") {
    const float ninf = -INFINITY;
    // 2 x 4 -> 1 x 2: blocks {1, -5, 0, 0} and {2, 0, 3, 0}.
    const std::vector<float> v = {1, -5, 2, 0, 0, 0, 3, 0};
    const std::vector<float> out = pool_max_abs(v, 2, 4, 1, 2);
    REQUIRE(out.size() == 2u);
    CHECK(out[0] == -5.0f);
    CHECK(out[1] == 3.0f);
    const std::vector<float> masked = {ninf, ninf, ninf, 0.5f};
    const std::vector<float> m = pool_max_abs(masked, 2, 2, 1, 1);
    CHECK(m[0] == 0.5f);
    const std::vector<float> all = {ninf, ninf};
    CHECK(std::isinf(pool_max_abs(all, 1, 2, 1, 1)[0]));
}

TEST_CASE("a large trace is reduced to display resolution") {
    const Trace t = make_trace(300, 16, 4);
    const DisplayModel m = build_display_model(t, {}, {}, 0, 128);
    const StepDisplay& s = step_of(m, t, "attn_scores");
    for (const Panel& p : s.panels) {
        CHECK(p.rows == 300);
        CHECK(p.tex_rows <= 128);
        CHECK(p.values.size() == static_cast<size_t>(p.tex_rows) * p.tex_cols);
    }
}

TEST_CASE("fused and stacked variants get displays too") {
    for (Variant v : {Variant::Fused, Variant::Stacked}) {
        const Trace t = make_trace(3, 6, 3, MaskKind::None, v);
        const DisplayModel m = build_display_model(t, {}, {}, 0);
        CAPTURE(to_string(v));
        REQUIRE(m.steps.size() == t.steps.size());
        for (const StepDisplay& sd : m.steps) CHECK_FALSE(sd.panels.empty());
    }
}
