#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "app/gui/display/display_model.h"
#include "app/gui/display/projection.h"
#include "core/explain_cell.h"
#include "core/attention.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::test_configs;

namespace {

Trace make_trace(AttentionConfig c) {
    Result<Trace> t = run_attention(c);
    REQUIRE_MESSAGE(t.ok(), t.error());
    return std::move(t.value());
}

bool overlaps(const Rect& a, const Rect& b) {
    return a.x < b.right() && b.x < a.right() && a.y < b.bottom() && b.y < a.bottom();
}

}  // namespace

TEST_CASE("every projection cell is the dot product of its X row and W row, plus the bias") {
    for (Variant variant : {Variant::Split, Variant::Fused, Variant::Stacked}) {
        for (bool bias : {true, false}) {
            const Trace t = make_trace(with(with_variant(sized(3, 6, 2, /*batch=*/2), variant), &AttentionConfig::bias, bias));
            const DisplayModel m = build_display_model(t, {}, {}, 1);
            int projections = 0;
            for (size_t s = 0; s < t.steps.size(); ++s) {
                if (t.steps[s].kind != StepKind::Projection) continue;
                ++projections;
                const ProjectionWeights pw = projection_weights(t, static_cast<int>(s));
                CAPTURE(std::string(t.steps[s].name()));
                CAPTURE(to_string(variant));
                REQUIRE(pw.valid());
                CHECK(pw.has_bias() == bias);
                const StepDisplay& sd = m.steps[s];
                REQUIRE(sd.weight_panels.size() == sd.panels.size());
                CHECK(sd.bias_panels.size() == (bias ? sd.panels.size() : 0u));
                for (const Panel& panel : sd.panels) {
                    const int f0 = panel_first_feature(sd, panel, t.config.head_dim());
                    for (int r = 0; r < panel.rows; ++r) {
                        for (int c = 0; c < panel.cols; ++c) {
                            CAPTURE(r);
                            CAPTURE(c);
                            // The panel's column c is output feature f0 + c: the weight row the core's
                            // explanation of that cell multiplies by.
                            const CellExplanation e = explain_cell(t, CellAddress::of_step(t.steps[s].id, cell_index(panel, r, c)));
                            REQUIRE(e.term_count == pw.in);
                            REQUIRE_FALSE(e.terms.empty());
                            CHECK(e.terms.front().b.row == f0 + c);
                            CHECK(e.sum == doctest::Approx(cell_value(t.steps[s].tensor, panel, r, c)).epsilon(1e-5));
                        }
                    }
                }
            }
            CHECK(projections == (variant == Variant::Fused ? 2 : 4));
        }
    }
}

TEST_CASE("W^T panels hold the weight rows of their column group, transposed") {
    const Trace t = make_trace(with_variant(sized(3, 6, 2, /*batch=*/2), Variant::Fused));
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    const int qkv = t.index_of(attn::StepId::Qkv);
    REQUIRE(qkv >= 0);
    const ProjectionWeights pw = projection_weights(t, qkv);
    CHECK(pw.out == 18);
    CHECK(pw.w_name == "W_qkv");
    const StepDisplay& sd = m.steps[static_cast<size_t>(qkv)];
    REQUIRE(sd.weight_panels.size() == 6u);  // q h0, q h1, k h0, ...
    // The k part of W_qkv is W_k: feature 6 + j is row j of W_k.
    CHECK(weight_at(pw, 7, 2) == t.weights().w_k(1, 2));
    CHECK(bias_at(pw, 13) == t.weights().b_v(1));
    const Panel& k_h0 = sd.weight_panels[2];
    CHECK(k_h0.rows == 6);
    CHECK(k_h0.cols == 3);
    for (int i = 0; i < k_h0.rows; ++i) {
        for (int j = 0; j < k_h0.cols; ++j) CHECK(k_h0.values[static_cast<size_t>(i * 3 + j)] == t.weights().w_k(j, i));
    }
    CHECK(sd.weight_vmin == -sd.weight_vmax);
}

TEST_CASE("steps that are not projections have no weights to show") {
    const Trace t = make_trace(sized(3, 6, 2, /*batch=*/2));
    CHECK_FALSE(projection_weights(t, t.index_of(attn::StepId::QHeads)).valid());  // a transpose here
    CHECK_FALSE(projection_weights(t, t.index_of(attn::StepId::AttnScores)).valid());
    CHECK_FALSE(projection_weights(t, -1).valid());
    CHECK(projection_weights(t, t.index_of(attn::StepId::Out)).w_name == "W_o");
}

TEST_CASE("the product layout lines X rows up with Y rows and W^T columns with Y columns") {
    LayoutStyle style;
    const Rect area{10, 20, 900, 600};
    for (int rows : {1, 6, 64, 1024}) {
        for (int in : {1, 6, 256, 1024}) {
            for (bool bias : {true, false}) {
                CAPTURE(rows);
                CAPTURE(in);
                const std::vector<int> groups = {in > 8 ? 32 : 3, in > 8 ? 32 : 3};
                const ProductLayout pl = layout_product(rows, in, groups, 8.0f, bias, area, style);
                REQUIRE(pl.ok);
                REQUIRE(pl.w.size() == 2u);
                CHECK(pl.b.size() == (bias ? 2u : 0u));
                CHECK(pl.x.y == doctest::Approx(pl.y[0].rect.y));
                CHECK(pl.x.h == doctest::Approx(pl.y[0].rect.h));
                CHECK(pl.x.w == doctest::Approx(pl.in_w * static_cast<float>(in)));
                for (size_t k = 0; k < 2; ++k) {
                    CHECK(pl.w[k].x == doctest::Approx(pl.y[k].rect.x));
                    CHECK(pl.w[k].w == doctest::Approx(pl.y[k].rect.w));
                    CHECK(pl.w[k].bottom() <= pl.y[k].rect.y);
                    CHECK_FALSE(overlaps(pl.x, pl.w[k]));
                    CHECK_FALSE(overlaps(pl.x, pl.y[k].rect));
                }
                CHECK_FALSE(overlaps(pl.y[0].rect, pl.y[1].rect));
                CHECK(pl.x.x >= area.x);
                CHECK(pl.y[1].rect.right() <= area.right() + 0.5f);
                CHECK(pl.y[1].rect.bottom() <= area.bottom() + 0.5f);
                CHECK(pl.w[0].y >= area.y);
                CHECK(pl.row_h + 0.01f >= pl.in_h);  // the result's rows never shorter than W^T's (issue 32)
            }
        }
    }
    CHECK_FALSE(layout_product(4, 4, {4}, 0.0f, true, Rect{0, 0, 10, 10}, style).ok);
}

TEST_CASE("weights of masked keys are marked for hatching, other zeros are not") {
    AttentionConfig c = sized(4, 4, 2);
    c.mask = MaskKind::Causal;
    c.dropout = 0.5f;
    c.dropout_seed = 3;
    const Trace t = make_trace(c);
    const DisplayModel m = build_display_model(t, {}, {}, 0);
    const float inf = std::numeric_limits<float>::infinity();
    for (const char* name : {"attn_weights", "attn_dropped"}) {
        const int s = t.index_of(parse_step_name(name).value());
        REQUIRE(s >= 0);
        const StepDisplay& sd = m.steps[static_cast<size_t>(s)];
        for (const Panel& p : sd.panels) {
            for (int i = 0; i < p.rows; ++i) {
                for (int j = 0; j < p.cols; ++j) {
                    CAPTURE(name);
                    CAPTURE(i);
                    CAPTURE(j);
                    const float v = p.values[static_cast<size_t>(i * p.cols + j)];
                    CHECK((v == inf) == (j > i));  // dropped weights (0, not masked) stay 0
                    if (j > i) CHECK(cell_value(t.steps[static_cast<size_t>(s)].tensor, p, i, j) == 0.0f);
                }
            }
        }
        CHECK(bake_cell_px(sd.panels.front()) == 16);
    }
    CHECK(bake_cell_px(m.steps[static_cast<size_t>(t.index_of(attn::StepId::AttnScores))].panels.front()) == 1);
    CHECK(bake_cell_px(m.steps[static_cast<size_t>(t.index_of(attn::StepId::AttnMasked))].panels.front()) == 16);
}

TEST_CASE("pooling keeps a masked mark only where a whole block is masked") {
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> v = {inf, inf, 0.5f, inf, -inf, -inf, -inf, 0.25f};  // (2, 4)
    const std::vector<float> pooled = pool_max_abs(v, 2, 4, 1, 2);
    REQUIRE(pooled.size() == 2u);
    CHECK(std::isinf(pooled[0]));
    CHECK(pooled[1] == 0.5f);
}

TEST_CASE("a short, wide product area gives its height to the rows, not to empty space") {
    // Presentation mode at 1024x768, step 2 (L = E = 6, bias): a wide area with little height.
    LayoutStyle style;
    style.gap = 24;
    style.max_cell = 96;
    style.min_row = 24;
    style.header = 30;
    style.col_header = 22;
    style.row_gutter = 60;
    const Rect area{18, 200, 988, 380};
    const ProductLayout pl = layout_product(6, 6, {3, 3}, 0.0f, true, area, style);
    REQUIRE(pl.ok);
    const float used = pl.y[0].rect.bottom() - (pl.w[0].y - style.header - style.col_header);
    CHECK(used >= area.h - 1.0f);  // no band left empty above or below
    CHECK(pl.b[0].h <= std::max(pl.row_h * 1.5f, pl.in_h) + 0.5f);
    CHECK(pl.row_h >= 20.0f);
}

TEST_CASE("a few tokens under a tall W^T keep square result cells: W^T gives up height first") {
    // Llama's query projection at 1024x768 (L = 6, E = 16, no bias): the result was drawn
    // in 16 px rows under a W^T of 17 px rows, its numbers hidden.
    LayoutStyle style;
    style.gap = 24;
    style.max_cell = 96;
    style.min_row = 24;
    style.header = 30;
    style.col_header = 22;
    style.row_gutter = 60;
    const ProductLayout pl = layout_product(6, 16, {4, 4, 4, 4}, 4.0f, false, Rect{0, 120, 1024, 420}, style);
    REQUIRE(pl.ok);
    CHECK(pl.row_h >= pl.out_w - 0.5f);  // square cells in Y
    CHECK(pl.in_h * 16.0f >= (420.0f - 30.0f - 22.0f - 36.0f) / 3.0f - 0.5f);  // W^T keeps a third
}

TEST_CASE("many short rows of X do not squash the bias row below a row of W^T") {
    LayoutStyle style;
    style.gap = 24;
    style.max_cell = 96;
    style.min_row = 24;
    const ProductLayout pl = layout_product(64, 6, {3, 3}, 0.0f, true, Rect{18, 200, 988, 380}, style);
    REQUIRE(pl.ok);
    CHECK(pl.b[0].h >= pl.in_h - 0.5f);
    CHECK(pl.y[0].rect.bottom() <= 580.0f + 0.5f);
}
