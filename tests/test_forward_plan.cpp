// The forward plan (core/forward_plan.h) is the forward's record: every combination of
// options the plan distinguishes gets a tensor for each planned step, computed after its
// sources, with the storage its kind promises. And the softmax written once
// (core/softmax.h): explain_cell's exponentials are the forward's own.
#include <doctest/doctest.h>

#include <string>
#include <vector>

#include "core/attention.h"
#include "core/explain_cell.h"
#include "core/forward_plan.h"

using namespace attn;

namespace {

// Every switch of the plan, as bits of `options`.
AttentionConfig plan_config(Variant variant, unsigned options) {
    AttentionConfig c;
    c.batch = 2;
    c.seq_len = 5;
    c.hidden_dim = 8;
    c.num_heads = 4;
    c.variant = variant;
    c.mask = options & 1u ? MaskKind::Causal : MaskKind::None;
    c.mask_before_scale = (options & 2u) != 0;
    c.rope = (options & 4u) != 0;
    c.num_kv_heads = options & 8u ? 2 : 0;
    c.cross_attention = (options & 16u) != 0;
    if (c.cross_attention) c.kv_len = 7;
    c.dropout = options & 32u ? 0.25f : 0.0f;
    c.average_weights = (options & 64u) != 0;
    c.no_out_proj = (options & 128u) != 0;
    return c;
}

void check_recorded_as_planned(const AttentionConfig& c, const std::vector<uint8_t>& custom_mask) {
    Result<Trace> run = run_attention(c, default_weights(c), default_inputs(c), custom_mask);
    REQUIRE_MESSAGE(run.ok(), run.error());
    const Trace& t = run.value();
    const std::vector<PlannedStep> plan = planned_step_rows(plan_for(c, !custom_mask.empty()));
    REQUIRE(t.steps.size() == plan.size());
    for (size_t i = 0; i < plan.size(); ++i) {
        const Step& s = t.steps[i];
        const std::string step = s.name();
        CAPTURE(step);
        CHECK(s.id == plan[i].id);
        CHECK(s.kind == plan[i].kind);
        CHECK(s.sources == plan[i].sources);
        // The plan row is the step table's: its kind (or its variant's other kind) and all it reads.
        const StepInfo& row = step_info(s.id);
        CHECK((s.kind == row.kind || s.kind == row.other.kind));
        CHECK(s.sources.size() == static_cast<size_t>(row.sources.count));
        CHECK_FALSE(s.tensor.empty());
        for (StepId source : s.sources) CHECK(t.index_of(source) >= 0);
        for (StepId source : s.sources) CHECK(t.index_of(source) < static_cast<int>(i));
        // Slices and views copy nothing; a transpose copies only to append add_zero_attn's row.
        if (s.kind == StepKind::Slice || s.kind == StepKind::View) CHECK(s.is_view);
        if (s.kind == StepKind::Transpose) CHECK(s.is_view == !s.provenance.appended_zero_row);
        if (s.kind == StepKind::Projection || s.kind == StepKind::Softmax) CHECK_FALSE(s.is_view);
    }
}

}  // namespace

TEST_CASE("every planned step of every plan is recorded in the plan's order, after its sources") {
    int valid = 0;
    for (Variant variant : {Variant::Split, Variant::Fused, Variant::Stacked}) {
        for (unsigned options = 0; options < 256u; ++options) {
            const AttentionConfig c = plan_config(variant, options);
            if (!validate(c)) continue;  // e.g. RoPE with cross-attention, grouped heads outside split
            CAPTURE(static_cast<int>(variant));
            CAPTURE(options);
            check_recorded_as_planned(c, {});
            ++valid;
        }
    }
    CHECK(valid > 150);  // the loop reached most combinations, not only the defaults
}

TEST_CASE("a caller's mask alone adds the planned mask step") {
    AttentionConfig c = plan_config(Variant::Split, 0);
    std::vector<uint8_t> custom(static_cast<size_t>(c.L() * c.S()), 0);
    custom[1] = 1;
    SUBCASE("after the scale") {}
    SUBCASE("before the scale") { c.mask_before_scale = true; }
    check_recorded_as_planned(c, custom);
    CHECK(planned_steps(plan_for(c, true)).size() == planned_steps(plan_for(c, false)).size() + 1);
}

TEST_CASE("explain_cell's softmax exponentials and sum are the forward's, bit for bit") {
    AttentionConfig c;
    c.batch = 2;
    // Rows of 37: Eigen takes exponentials 4 to 16 at a time and the leftovers one by one
    // with std::exp, which differs in the last bit for about one cell in ten here; an
    // explanation computing them at another address got about one in twenty wrong.
    c.seq_len = 37;
    c.hidden_dim = 8;
    c.num_heads = 2;
    c.mask = MaskKind::Causal;
    c.seed = 3;
    Result<Trace> run = run_attention(c);
    REQUIRE(run.ok());
    const Trace& t = run.value();
    const Tensor& weights = t.find(StepId::AttnWeights)->tensor;
    int cells = 0;
    for (int64_t b = 0; b < c.batch; ++b)
        for (int64_t h = 0; h < c.num_heads; ++h)
            for (int64_t i = 0; i < c.L(); ++i)
                for (int64_t j = 0; j < c.S(); ++j) {
                    const CellExplanation e = explain_cell(t, CellAddress::of_step(StepId::AttnWeights, {b, h, i, j}));
                    REQUIRE(e.rule == CellRule::Softmax);
                    CAPTURE(b);
                    CAPTURE(h);
                    CAPTURE(i);
                    CAPTURE(j);
                    // The forward multiplies each exponential by 1/sum (float32): the same product.
                    CHECK(e.exp_value * e.inv_sum == weights.at({b, h, i, j}));
                    ++cells;
                }
    CHECK(cells == 2 * 2 * 37 * 37);
}
