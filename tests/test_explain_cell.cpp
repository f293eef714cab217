// explain_cell: for every step of every variant and a sample of cells, the terms it
// returns recombine to the recorded value, name cells that hold the values they quote,
// and highlight cells that exist. The recombination is done independently, in
// tests/explain_cell_checks.h; the articles' options and the trained models are in
// test_explain_cell_more.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "core/attention.h"
#include "core/explain_cell.h"
#include "core/ops.h"
#include "tests/explain_cell_checks.h"
#include "tests/test_configs.h"

using namespace attn;

namespace {

using test::check_trace;
using namespace attn::test_configs;

}  // namespace

TEST_CASE("explain_cell's terms recombine to every step's recorded value in every variant") {
    for (Variant variant : {Variant::Split, Variant::Fused, Variant::Stacked}) {
        AttentionConfig c = small_batch();
        c.variant = variant;
        CAPTURE(static_cast<int>(variant));
        SUBCASE("plain") {}
        SUBCASE("causal mask") { c.mask = MaskKind::Causal; }
        SUBCASE("padding mask") {
            c.mask = MaskKind::Padding;
            c.valid_lengths = {3, 5};
        }
        SUBCASE("dropout") {
            c.dropout = 0.3f;
            c.dropout_seed = 7;
        }
        SUBCASE("no bias") { c.bias = false; }
        SUBCASE("wide heads: terms summarised") {
            c.hidden_dim = 64;
            c.num_heads = 2;
            c.seq_len = 20;
        }
        if (variant != Variant::Fused) {  // fused needs one input width
            SUBCASE("cross-attention") {
                c.kv_len = 7;
                c.kdim = 5;
                c.vdim = 9;
            }
        }
        Result<Trace> t = run_attention(c);
        REQUIRE_MESSAGE(t.ok(), t.error());
        check_trace(t.value(), 11);
    }
}

TEST_CASE("a custom mask that hides a whole row is explained as such") {
    AttentionConfig c = small_batch();
    c.mask = MaskKind::Causal;
    std::vector<uint8_t> custom(static_cast<size_t>(c.L() * c.S()), 0);
    for (int j = 0; j < c.S(); ++j) custom[static_cast<size_t>(2 * c.S() + j)] = 1;  // row 2: every key hidden
    custom[static_cast<size_t>(4 * c.S() + 1)] = 1;                                   // row 4: key 1 hidden
    Result<Trace> t = run_attention(c, default_weights(c), default_inputs(c), custom);
    REQUIRE_MESSAGE(t.ok(), t.error());
    check_trace(t.value(), 5);
    const CellExplanation causal = explain_cell(t.value(), CellAddress::of_step(StepId::AttnMasked, {0, 1, 1, 3}));
    CHECK(causal.rule == CellRule::MaskFilled);
    CHECK(causal.mask_reason == MaskReason::Causal);
    const CellExplanation custom_hidden = explain_cell(t.value(), CellAddress::of_step(StepId::AttnMasked, {1, 0, 4, 1}));
    CHECK(custom_hidden.rule == CellRule::MaskFilled);
    CHECK(custom_hidden.mask_reason == MaskReason::Custom);
    const CellExplanation kept = explain_cell(t.value(), CellAddress::of_step(StepId::AttnMasked, {1, 0, 4, 2}));
    CHECK(kept.rule == CellRule::MaskKept);
    const CellExplanation row = explain_cell(t.value(), CellAddress::of_step(StepId::AttnWeights, {0, 2, 2, 0}));
    CHECK(row.rule == CellRule::FullyMaskedRow);
}

TEST_CASE("many terms: the largest are listed first and the rest still close the sum") {
    AttentionConfig c = small_batch();
    c.hidden_dim = 64;
    c.num_heads = 1;
    c.seq_len = 40;
    Result<Trace> t = run_attention(c);
    REQUIRE(t.ok());
    for (StepId id : {StepId::Q, StepId::AttnScores, StepId::AttnWeights, StepId::Context, StepId::Out}) {
        const std::string name = step_name(id);
        CAPTURE(name);
        const CellExplanation e = explain_cell(t.value(), CellAddress::of_step(id, id == StepId::Q || id == StepId::Out
                                                                                        ? std::vector<int64_t>{1, 3, 5}
                                                                                        : std::vector<int64_t>{1, 0, 3, 5}));
        REQUIRE(e.valid);
        CHECK(e.terms.size() == 6);
        CHECK(e.term_count == (id == StepId::AttnWeights || id == StepId::Context ? 40 : 64));
        CHECK(e.omitted_terms == e.term_count - 6);
        for (size_t k = 1; k < e.terms.size(); ++k) CHECK(std::fabs(e.terms[k - 1].value) >= std::fabs(e.terms[k].value));
    }
}

TEST_CASE("addresses outside the trace give an invalid explanation, not a crash") {
    Result<Trace> t = run_attention(small_batch());
    REQUIRE(t.ok());
    CHECK_FALSE(explain_cell(t.value(), CellAddress::of_step(StepId::AttnScores, {0, 0, 0})).valid);
    CHECK_FALSE(explain_cell(t.value(), CellAddress::of_step(StepId::AttnScores, {0, 3, 0, 0})).valid);
    CHECK_FALSE(explain_cell(t.value(), CellAddress::of_step(StepId::AttnMasked, {0, 0, 0, 0})).valid);  // not recorded
    CHECK_FALSE(explain_cell(t.value(), CellAddress::of_weight(WeightId::Wo, 12, 0)).valid);
    CHECK_FALSE(explain_cell(t.value(), CellAddress::of_weight(WeightId::Wqkv, 36, 0)).valid);
    CHECK(explain_cell(t.value(), CellAddress::of_weight(WeightId::Wqkv, 35, 11)).valid);
}

TEST_CASE("Rng::discard skips exactly as many draws as it is told (dropout replay relies on it)") {
    for (uint64_t n : {0ull, 1ull, 7ull, 1000ull}) {
        CAPTURE(n);
        Rng drawn = dropout_stream(3, 1, 2), skipped = dropout_stream(3, 1, 2);
        for (uint64_t k = 0; k < n; ++k) drawn.next_u64();
        skipped.discard(n);
        CHECK(drawn.uniform01() == skipped.uniform01());
        CHECK(drawn.next_u64() == skipped.next_u64());
    }
}
