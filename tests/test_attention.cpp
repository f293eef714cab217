// The attention forward against a plain reference, its invariants, and the variants.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>

#include "core/attention.h"
#include "core/forward_plan.h"
#include "core/step_text.h"
#include "reference_attention.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::test_configs;

// B = 2, L = 5, E = 12, H = 3 with its own weight seed.
static const AttentionConfig kSmall = seeded(small_batch(), 7);

// A step by its file-format name (the names are what a reader of the test knows).
static const Tensor& step(const Trace& t, const char* name) {
    const std::optional<StepId> id = parse_step_name(name);
    REQUIRE_MESSAGE(id.has_value(), "no step is called ", name);
    const Step* s = t.find(*id);
    REQUIRE_MESSAGE(s != nullptr, "missing step ", name);
    return s->tensor;
}

// Every recorded step against the double-precision reference, within 2e-5 relative to
// the step's largest value; a failure names the step and the index of the worst cell.
static void check_against_reference(const AttentionConfig& c) {
    const AttentionWeights w = default_weights(c);
    const AttentionInputs in = default_inputs(c);
    Result<Trace> trace = run_attention(c, w, in);
    REQUIRE_MESSAGE(trace.ok(), trace.error());
    const ref::Result r = ref::attention(c, w, in);
    const Trace& t = trace.value();
    CHECK(t.steps.size() == planned_steps(c).size());
    for (const Step& s : t.steps) {
        const ref::Difference d = ref::max_abs_diff(s.tensor, ref::expected(r, s.id));
        const std::string step = s.name();
        const std::string where = d.size_mismatch ? "size mismatch" : ref::index_text(s.tensor, d.index);
        CAPTURE(step);
        CAPTURE(where);
        CAPTURE(d.worst);
        CHECK(d.worst <= 2e-5 * d.scale);
    }
}

TEST_CASE("every step matches a plain triple-loop reference") {
    AttentionConfig c = kSmall;
    SUBCASE("no mask") {}
    SUBCASE("causal mask") { c.mask = MaskKind::Causal; }
    SUBCASE("padding mask") { c.mask = MaskKind::Padding; c.valid_lengths = {3, 5}; }
    SUBCASE("no bias") { c.bias = false; }
    SUBCASE("one head") { c.num_heads = 1; }
    SUBCASE("one token") { c.seq_len = 1; }
    SUBCASE("cross-attention with kdim and vdim") { c.kv_len = 7; c.kdim = 5; c.vdim = 9; }
    SUBCASE("stacked variant") { c.variant = Variant::Stacked; }
    SUBCASE("fused variant, causal") { c.variant = Variant::Fused; c.mask = MaskKind::Causal; }
    SUBCASE("stacked variant, padding, dropout") {
        c.variant = Variant::Stacked;
        c.mask = MaskKind::Padding;
        c.valid_lengths = {2, 4};
        c.dropout = 0.3f;
    }
    SUBCASE("fused variant, causal, dropout") {
        c.variant = Variant::Fused;
        c.mask = MaskKind::Causal;
        c.dropout = 0.5f;
    }
    check_against_reference(c);
}

TEST_CASE("self-attention records the documented steps in order") {
    AttentionConfig c = kSmall;
    c.mask = MaskKind::Causal;
    c.dropout = 0.1f;
    Result<Trace> t = run_attention(c);
    REQUIRE(t.ok());
    std::vector<StepId> ids;
    for (const Step& s : t->steps) ids.push_back(s.id);
    CHECK(ids == planned_steps(c));
    for (const Step& s : t->steps) {
        const std::string step_name = s.name();
        CAPTURE(step_name);
        CHECK(s.tensor.dim_names().size() == s.tensor.shape().size());
        CHECK(s.tensor.dim_roles().size() == s.tensor.shape().size());
        for (StepId src : s.sources) CHECK(t->index_of(src) >= 0);
        for (StepId src : s.sources) CHECK(t->index_of(src) < t->index_of(s.id));
    }
    CHECK(step(t.value(), "q_heads").shape_string() == "(B=2, H=3, L=5, d_h=4)");
    CHECK(step(t.value(), "attn_scores").shape_string() == "(B=2, H=3, L=5, S=5)");
}

TEST_CASE("cross-attention adds key and value inputs and uses length S") {
    AttentionConfig c = kSmall;
    c.kv_len = 8;
    c.kdim = 6;
    c.vdim = 10;
    Result<Trace> t = run_attention(c);
    REQUIRE(t.ok());
    CHECK(t->steps[1].id == StepId::KeyInput);
    CHECK(t->steps[2].id == StepId::ValueInput);
    CHECK(step(t.value(), "key_input").shape_string() == "(B=2, S=8, kdim=6)");
    CHECK(step(t.value(), "k").shape_string() == "(B=2, S=8, E=12)");
    CHECK(step(t.value(), "attn_weights").shape_string() == "(B=2, H=3, L=5, S=8)");
}

TEST_CASE("views and transposes are marked and copy nothing; concat copies") {
    Result<Trace> t = run_attention(kSmall);
    REQUIRE(t.ok());
    const auto is_view = [&](const char* name) { return t->find(*parse_step_name(name))->is_view; };
    CHECK(is_view("q_split"));
    CHECK(is_view("q_heads"));
    CHECK(is_view("context_split"));
    CHECK_FALSE(is_view("concat"));
    CHECK(step(t.value(), "q_heads").shares_storage_with(step(t.value(), "q")));
    CHECK_FALSE(step(t.value(), "q_heads").is_contiguous());
    CHECK(step(t.value(), "q_split").is_contiguous());
    CHECK_FALSE(step(t.value(), "context_split").is_contiguous());
    CHECK(step(t.value(), "concat").is_contiguous());
}

TEST_CASE("softmax rows sum to one and masked weights are exactly zero") {
    AttentionConfig c = kSmall;
    c.seq_len = 9;
    SUBCASE("causal: the upper triangle is zero") {
        c.mask = MaskKind::Causal;
        Result<Trace> t = run_attention(c);
        REQUIRE(t.ok());
        const Tensor& w = step(t.value(), "attn_weights");
        const Tensor& m = step(t.value(), "attn_masked");
        for (int64_t b = 0; b < 2; ++b)
            for (int64_t h = 0; h < 3; ++h)
                for (int64_t i = 0; i < 9; ++i) {
                    double sum = 0;
                    for (int64_t j = 0; j < 9; ++j) {
                        sum += w.at({b, h, i, j});
                        if (j > i) {
                            CHECK(w.at({b, h, i, j}) == 0.0f);
                            CHECK(std::isinf(m.at({b, h, i, j})));
                        }
                    }
                    CHECK(sum == doctest::Approx(1.0).epsilon(1e-5));
                }
    }
    SUBCASE("padding: keys past the valid length get zero weight") {
        c.mask = MaskKind::Padding;
        c.valid_lengths = {4, 9};
        Result<Trace> t = run_attention(c);
        REQUIRE(t.ok());
        const Tensor& w = step(t.value(), "attn_weights");
        for (int64_t h = 0; h < 3; ++h)
            for (int64_t i = 0; i < 9; ++i) {
                for (int64_t j = 4; j < 9; ++j) CHECK(w.at({0, h, i, j}) == 0.0f);
                CHECK(w.at({1, h, i, 8}) > 0.0f);
            }
    }
}

TEST_CASE("a fully masked row gives zeros, not NaN, and is flagged") {
    AttentionConfig c = kSmall;
    std::vector<uint8_t> mask(static_cast<size_t>(c.L() * c.S()), 0);
    for (int j = 0; j < c.S(); ++j) mask[static_cast<size_t>(2 * c.S() + j)] = 1;  // query 2 sees nothing
    Result<Trace> t = run_attention(c, default_weights(c), default_inputs(c), mask);
    REQUIRE(t.ok());
    const Tensor& w = step(t.value(), "attn_weights");
    const Tensor& ctx = step(t.value(), "context");
    for (float x : w.to_vector()) REQUIRE_FALSE(std::isnan(x));
    for (int64_t j = 0; j < c.S(); ++j) CHECK(w.at({1, 2, 2, j}) == 0.0f);
    for (int64_t d = 0; d < c.head_dim(); ++d) CHECK(ctx.at({0, 1, 2, d}) == 0.0f);
    CHECK(t->count_fully_masked_rows() == c.batch * c.H());
    CHECK(t->fully_masked_rows[static_cast<size_t>((1 * c.H() + 2) * c.L() + 2)] == 1);
    CHECK(t->fully_masked_rows[static_cast<size_t>((1 * c.H() + 2) * c.L() + 1)] == 0);
}

TEST_CASE("split, stacked and fused give the same output from the same weights") {
    AttentionConfig c = kSmall;
    c.hidden_dim = 32;
    c.num_heads = 4;
    c.seq_len = 11;
    SUBCASE("no mask") {}
    SUBCASE("causal") { c.mask = MaskKind::Causal; }
    SUBCASE("no bias") { c.bias = false; }
    const AttentionWeights w = default_weights(c);
    const AttentionInputs in = default_inputs(c);
    std::vector<std::vector<float>> outs;
    for (Variant v : {Variant::Split, Variant::Stacked, Variant::Fused}) {
        c.variant = v;
        Result<Trace> t = run_attention(c, w, in);
        REQUIRE_MESSAGE(t.ok(), t.error());
        outs.push_back(step(t.value(), "out").to_vector());
    }
    for (size_t k = 1; k < outs.size(); ++k) {
        double worst = 0;
        for (size_t i = 0; i < outs[0].size(); ++i) worst = std::max(worst, double(std::abs(outs[0][i] - outs[k][i])));
        CAPTURE(k);
        CHECK(worst < 1e-5);
    }
}

TEST_CASE("the fused variant slices Q, K and V out of one buffer") {
    AttentionConfig c = kSmall;
    c.variant = Variant::Fused;
    Result<Trace> t = run_attention(c);
    REQUIRE(t.ok());
    CHECK(step(t.value(), "qkv").shape_string() == "(B=2, L=5, 3E=36)");
    CHECK(step(t.value(), "k").shares_storage_with(step(t.value(), "qkv")));
    CHECK_FALSE(step(t.value(), "k").is_contiguous());
    CHECK(step(t.value(), "k").strides()[1] == 36);
}

TEST_CASE("inverted dropout zeroes some weights and scales survivors by 1/(1-p)") {
    AttentionConfig c = kSmall;
    c.seq_len = 16;
    c.dropout = 0.25f;
    c.dropout_seed = 3;
    Result<Trace> t = run_attention(c);
    REQUIRE(t.ok());
    const std::vector<float> w = step(t.value(), "attn_weights").to_vector();
    const std::vector<float> d = step(t.value(), "attn_dropped").to_vector();
    size_t dropped = 0;
    for (size_t i = 0; i < w.size(); ++i) {
        if (d[i] == 0.0f) ++dropped;
        else CHECK(d[i] == doctest::Approx(w[i] / 0.75f).epsilon(1e-6));
    }
    const double fraction = double(dropped) / double(w.size());
    CHECK(fraction > 0.18);
    CHECK(fraction < 0.32);
    SUBCASE("the same dropout seed drops the same cells; another seed does not") {
        Result<Trace> again = run_attention(c);
        CHECK(step(again.value(), "attn_dropped").to_vector() == d);
        c.dropout_seed = 4;
        Result<Trace> other = run_attention(c);
        CHECK(step(other.value(), "attn_dropped").to_vector() != d);
    }
}

TEST_CASE("the same seed gives the same numbers; another seed different ones") {
    AttentionConfig c = kSmall;
    const std::vector<float> a = step(run_attention(c).value(), "out").to_vector();
    CHECK(step(run_attention(c).value(), "out").to_vector() == a);
    c.seed = 8;
    CHECK(step(run_attention(c).value(), "out").to_vector() != a);
}

TEST_CASE("NaN biases and scores that overflow float32 are refused, not traced as NaN") {
    AttentionConfig c = kSmall;
    AttentionWeights w = default_weights(c);
    AttentionInputs in = default_inputs(c);
    SUBCASE("NaN bias") {
        w.b_v[2] = std::nanf("");
        CHECK(run_attention(c, w, in).error().find("biases contain NaN") != std::string::npos);
    }
    SUBCASE("huge but finite inputs") {
        Tensor big = in.query.contiguous(true);
        for (int64_t i = 0; i < big.numel(); ++i) big.mutable_data()[i] = 1e30f;
        in.query = big;
        CHECK(run_attention(c, w, in).error().find("overflow float32") != std::string::npos);
    }
}

TEST_CASE("the memory estimate equals what the trace really holds") {
    AttentionConfig c = kSmall;
    SUBCASE("split") {}
    SUBCASE("stacked, masked, dropout") { c.variant = Variant::Stacked; c.mask = MaskKind::Causal; c.dropout = 0.5f; }
    SUBCASE("fused") { c.variant = Variant::Fused; }
    SUBCASE("cross") { c.kv_len = 3; c.kdim = 4; c.vdim = 7; }
    Result<Trace> t = run_attention(c);
    REQUIRE(t.ok());
    CHECK(t->storage_bytes() == estimate_trace_bytes(c));
}

TEST_CASE("a row the trace flags as fully masked is found by is_fully_masked_row") {
    AttentionConfig c;
    c.seq_len = 4;
    c.hidden_dim = 4;
    c.num_heads = 2;
    Result<Trace> run = run_attention(c);
    REQUIRE(run.ok());
    Trace t = std::move(run.value());
    CHECK_FALSE(is_fully_masked_row(t, 0, 1, 2));  // an ordinary row
    // No mask the window offers yet can mask a whole row; build the trace the core would give.
    REQUIRE(t.fully_masked_rows.size() == static_cast<size_t>(1 * 2 * 4));
    t.fully_masked_rows[(0 * 2 + 1) * 4 + 2] = 1;  // (b=0, h=1, row 2)
    CHECK(is_fully_masked_row(t, 0, 1, 2));
    CHECK_FALSE(is_fully_masked_row(t, 0, 0, 2));  // the other head's row is not flagged
    CHECK_FALSE(is_fully_masked_row(t, 0, 1, 4));  // out of range: no flag, no crash
    CHECK_FALSE(is_fully_masked_row(t, -1, 1, 2));
}

TEST_CASE("the scaling readout is computed from the trace's scores") {
    AttentionConfig c;
    c.seq_len = 5;
    c.hidden_dim = 8;
    c.num_heads = 2;
    Result<Trace> run = run_attention(c);
    REQUIRE(run.ok());
    const Trace& t = run.value();
    const ScalingEffect e = scaling_effect(t, 0, 1, 3);
    REQUIRE(e.valid);
    // The scaled version is what the trace's softmax computed.
    const Tensor& w = t.find(StepId::AttnWeights)->tensor;
    float largest = 0.0f;
    for (int j = 0; j < 5; ++j) largest = std::max(largest, w.at({0, 1, 3, j}));
    CHECK(e.max_weight_scaled == doctest::Approx(largest).epsilon(1e-4));
    CHECK(e.max_weight_unscaled >= e.max_weight_scaled);  // dividing by sqrt(d_h) flattens the row
}

TEST_CASE("each step records its provenance: weights of projections, slices, permutations, the mask") {
    AttentionConfig c = kSmall;
    SUBCASE("split") {
        const Trace t = run_attention(c).value();
        CHECK(t.find(StepId::Q)->provenance.has_weight);
        CHECK(t.find(StepId::Q)->provenance.weight == WeightId::Wq);
        CHECK(t.find(StepId::K)->provenance.weight == WeightId::Wk);
        CHECK(t.find(StepId::V)->provenance.weight == WeightId::Wv);
        CHECK(t.find(StepId::Out)->provenance.weight == WeightId::Wo);
        CHECK_FALSE(t.find(StepId::AttnScores)->provenance.has_weight);
        CHECK(t.find(StepId::QSplit)->provenance.permutation == std::vector<int>{0, 1, 2, 2});
        CHECK(t.find(StepId::KHeads)->provenance.permutation == std::vector<int>{0, 2, 1, 3});
        CHECK(t.find(StepId::ContextSplit)->provenance.permutation == std::vector<int>{0, 2, 1, 3});
        CHECK(t.find(StepId::AttnScores)->sources == std::vector<StepId>{StepId::QHeads, StepId::KHeads});
        CHECK(t.find(StepId::Context)->primary_source() == StepId::AttnWeights);
    }
    SUBCASE("fused: one stacked weight, then column slices") {
        c.variant = Variant::Fused;
        const Trace t = run_attention(c).value();
        CHECK(t.find(StepId::Qkv)->provenance.weight == WeightId::Wqkv);
        CHECK(weight_parts(WeightId::Wqkv) == std::vector<WeightId>{WeightId::Wq, WeightId::Wk, WeightId::Wv});
        CHECK_FALSE(t.find(StepId::K)->provenance.has_weight);
        CHECK(t.find(StepId::K)->provenance.column == c.E());
        CHECK(t.find(StepId::K)->provenance.columns == c.E());
        CHECK(t.find(StepId::K)->primary_source() == StepId::Qkv);
    }
    SUBCASE("stacked: per-head projections") {
        c.variant = Variant::Stacked;
        const Trace t = run_attention(c).value();
        CHECK(t.find(StepId::VHeads)->provenance.weight == WeightId::Wv);
        CHECK(t.find(StepId::VHeads)->provenance.per_head);
        CHECK(t.find(StepId::Concat)->primary_source() == StepId::Context);
    }
    SUBCASE("padding mask") {
        c.mask = MaskKind::Padding;
        c.valid_lengths = {3, 5};
        const Trace t = run_attention(c).value();
        CHECK(t.find(StepId::AttnMasked)->provenance.mask == MaskKind::Padding);
        CHECK(t.find(StepId::AttnMasked)->provenance.valid_lengths == std::vector<int>{3, 5});
        CHECK(t.find(StepId::AttnWeights)->primary_source() == StepId::AttnMasked);
    }
}

TEST_CASE("dimensions carry roles, not just letters") {
    AttentionConfig c = kSmall;
    c.kv_len = 7;  // cross-attention: keys have their own length
    const Trace t = run_attention(c).value();
    using R = DimRole;
    CHECK(t.find(StepId::AttnScores)->tensor.dim_roles() == std::vector<R>{R::Batch, R::Head, R::QueryPos, R::KeyPos});
    CHECK(t.find(StepId::KHeads)->tensor.dim_roles() == std::vector<R>{R::Batch, R::Head, R::KeyPos, R::HeadDim});
    CHECK(t.find(StepId::KeyInput)->tensor.dim_roles() == std::vector<R>{R::Batch, R::KeyPos, R::KeyFeature});
    CHECK(t.find(StepId::ContextSplit)->tensor.dim_roles() == std::vector<R>{R::Batch, R::QueryPos, R::Head, R::HeadDim});
    CHECK(t.find(StepId::Concat)->tensor.find_dim(R::Embedding) == 2);
    CHECK(t.find(StepId::Concat)->tensor.find_dim(R::Head) == -1);
}

TEST_CASE("the memory estimate, summed over planned_steps, is the trace's real storage") {
    AttentionConfig c = kSmall;
    SUBCASE("split") {}
    SUBCASE("fused, causal") { c.variant = Variant::Fused; c.mask = MaskKind::Causal; }
    SUBCASE("stacked, dropout") { c.variant = Variant::Stacked; c.dropout = 0.2f; }
    SUBCASE("cross") { c.kv_len = 7; c.kdim = 5; c.vdim = 9; }
    // The estimate reads each step's dimensions off the step table: these give K, V and
    // their heads other widths and lengths than the queries'.
    SUBCASE("grouped heads, RoPE, its own input width") { c.num_kv_heads = 1; c.rope = true; c.input_dim = 5; c.mask = MaskKind::Causal; }
    SUBCASE("bias_k and a zero key column, head mean") { c.add_bias_kv = true; c.add_zero_attn = true; c.average_weights = true; }
    SUBCASE("fused, mask before the scale, no output projection") {
        c.variant = Variant::Fused;
        c.mask = MaskKind::Causal;
        c.mask_before_scale = true;
        c.no_out_proj = true;
    }
    const Trace t = run_attention(c).value();
    CHECK(estimate_trace_bytes(c) == t.storage_bytes());
}

TEST_CASE("with dropout the head average is taken after dropout, as nn.MultiheadAttention returns it") {
    AttentionConfig c = attn::test_configs::sized(5, 6, 3);
    c.dropout = 0.4f;
    c.average_weights = true;
    Result<Trace> t = run_attention(c);
    REQUIRE(t.ok());
    const std::vector<StepId> order = planned_steps(c);
    const auto at = [&](StepId id) { return std::find(order.begin(), order.end(), id) - order.begin(); };
    CHECK(at(StepId::AttnDropped) < at(StepId::AttnWeightsAvg));  // recorded after what it averages
    const Tensor& dropped = t->find(StepId::AttnDropped)->tensor;  // (B, H, L, S)
    const Tensor& avg = t->find(StepId::AttnWeightsAvg)->tensor;   // (B, L, S)
    bool some_row_off_one = false;
    for (int64_t i = 0; i < c.seq_len; ++i) {
        float row = 0.0f;
        for (int64_t j = 0; j < c.seq_len; ++j) {
            float mean = 0.0f;
            for (int64_t h = 0; h < c.num_heads; ++h) mean += dropped.at({0, h, i, j});
            mean /= static_cast<float>(c.num_heads);
            CAPTURE(i);
            CAPTURE(j);
            CHECK(avg.at({0, i, j}) == doctest::Approx(mean).epsilon(1e-6));
            row += avg.at({0, i, j});
        }
        some_row_off_one |= std::fabs(row - 1.0f) > 1e-3f;
    }
    CHECK(some_row_off_one);  // dropout's zeros and 1/(1-p) show in the average
    CHECK(t->find(StepId::AttnWeightsAvg)->sources == std::vector<StepId>{StepId::AttnDropped});
}

TEST_CASE("fully masked query rows are counted per batch item, as the notes beside the item on screen say") {
    AttentionConfig c = attn::test_configs::sized(4, 6, 2, 2);
    c.mask = MaskKind::Padding;
    c.valid_lengths = {4, 0};  // item 1 sees no key at all
    Result<Trace> t = run_attention(c);
    REQUIRE(t.ok());
    CHECK(t->count_fully_masked_queries(0) == 0);
    CHECK(t->count_fully_masked_queries(1) == 4);   // 4 query rows, each masked in both heads
    CHECK(t->count_fully_masked_queries() == 4);
    CHECK(t->count_fully_masked_rows() == 2 * 4);  // (head, query) rows
}
