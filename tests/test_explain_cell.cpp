// explain_cell: for every step of every variant and a sample of cells, the terms it
// returns recombine to the recorded value, name cells that hold the values they quote,
// and highlight cells that exist. The recombination is done here, independently.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>

#include "core/attention.h"
#include "core/explain_cell.h"
#include "core/ops.h"

using namespace attn;

namespace {

bool close(double got, double want, double tol = 1e-6) {
    if (std::isinf(want)) return got == want;
    return std::fabs(got - want) <= tol * std::max(1.0, std::fabs(want));
}

bool exists(const Trace& t, const StepCells& cells) {
    const Step* s = t.find(cells.step);
    if (!s) return false;
    for (const auto& index : cells.cells) {
        if (static_cast<int>(index.size()) != s->tensor.rank()) return false;
        for (int d = 0; d < s->tensor.rank(); ++d)
            if (index[static_cast<size_t>(d)] < 0 || index[static_cast<size_t>(d)] >= s->tensor.dim(d)) return false;
    }
    return true;
}

// Corners, the middle and a few random cells of a tensor.
std::vector<std::vector<int64_t>> sample_cells(const Tensor& t, std::mt19937& rng) {
    std::vector<std::vector<int64_t>> out;
    std::vector<int64_t> first(static_cast<size_t>(t.rank()), 0), last, middle;
    for (int d = 0; d < t.rank(); ++d) {
        last.push_back(t.dim(d) - 1);
        middle.push_back(t.dim(d) / 2);
    }
    out = {first, last, middle};
    for (int k = 0; k < 4; ++k) {
        std::vector<int64_t> idx;
        for (int d = 0; d < t.rank(); ++d) idx.push_back(std::uniform_int_distribution<int64_t>(0, t.dim(d) - 1)(rng));
        out.push_back(idx);
    }
    return out;
}

// The terms of a sum, checked against the cells they name and recombined.
void check_dot_product(const Trace& t, const CellExplanation& e) {
    double sum = e.omitted_sum;
    for (const Term& term : e.terms) {
        CHECK(term.a_value == value_at_cell(t, term.a));
        CHECK(term.b_value == value_at_cell(t, term.b));
        CHECK(term.value == term.a_value * term.b_value);
        sum += term.value;
    }
    CHECK(e.omitted_terms == e.term_count - static_cast<int64_t>(e.terms.size()));
    if (e.has_bias) {
        CHECK(e.bias == value_at_cell(t, e.bias_cell));
        sum += e.bias;
    }
    CHECK_MESSAGE(close(sum, e.value), "terms sum to ", sum, ", recorded ", e.value);
    CHECK(close(e.sum, sum));
}

void check_softmax(const Trace& t, const CellExplanation& e) {
    float row_max = -std::numeric_limits<float>::infinity();
    REQUIRE(e.highlights.size() == 1);
    for (const auto& index : e.highlights[0].cells) row_max = std::max(row_max, t.find(e.highlights[0].step)->tensor.at(index));
    CHECK(e.row_max == row_max);
    double sum = e.omitted_sum;
    for (const Term& term : e.terms) {
        CHECK(term.a_value == value_at_cell(t, term.a));
        const double expected = std::isinf(term.a_value) ? 0.0 : std::exp(static_cast<double>(term.a_value) - row_max);
        CHECK(close(term.value, expected));
        sum += term.value;
    }
    CHECK(close(sum, e.exp_sum));
    CHECK(close(e.inv_sum, 1.0 / e.exp_sum));
    CHECK(close(e.exp_value, std::isinf(e.operand_value) ? 0.0 : std::exp(static_cast<double>(e.operand_value) - row_max)));
    CHECK_MESSAGE(close(e.exp_value * e.inv_sum, e.value), "exp * 1/sum = ", e.exp_value * e.inv_sum, ", recorded ", e.value);
}

// An input or weight cell flows into cells whose own explanation lists it as a term.
void check_flows(const Trace& t, const CellExplanation& e) {
    REQUIRE_FALSE(e.flows.empty());
    ExplainOptions every;
    every.all_terms_up_to = 1 << 20;
    for (const StepCells& flow : e.flows) {
        REQUIRE_FALSE(flow.cells.empty());
        const CellExplanation into = explain_cell(t, CellAddress::of_step(flow.step, flow.cells.front()), every);
        REQUIRE(into.rule == CellRule::DotProduct);
        bool found = false;
        for (const Term& term : into.terms) {
            if (e.cell.kind == CellAddress::Kind::Step)
                found |= term.a.step == e.cell.step && term.a.index == e.cell.index;
            else if (e.cell.kind == CellAddress::Kind::Weight)
                found |= term.k == e.cell.col && term.b_value == e.value;
        }
        if (e.cell.kind == CellAddress::Kind::Bias) found = into.has_bias && into.bias == e.value;
        const std::string into_step = step_name(flow.step);
        CAPTURE(into_step);
        CHECK(found);
    }
}

void check_cell(const Trace& t, const Step& step, const std::vector<int64_t>& index) {
    const std::string name = step.name();
    CAPTURE(name);
    CAPTURE(shape_text(index));
    const CellExplanation e = explain_cell(t, CellAddress::of_step(step.id, index));
    REQUIRE(e.valid);
    CHECK(e.value == step.tensor.at(index));
    for (const StepCells& h : e.highlights) {
        const std::string highlighted = step_name(h.step);
        CAPTURE(highlighted);
        CHECK(exists(t, h));
    }
    if (e.rule != CellRule::Given) CHECK(e.highlight_count() > 0);
    if (e.rule == CellRule::Scale || e.rule == CellRule::MaskKept || e.rule == CellRule::MaskFilled || e.rule == CellRule::Move ||
        e.rule == CellRule::DropoutKept || e.rule == CellRule::DropoutDropped)
        CHECK(e.operand_value == value_at_cell(t, e.operand));
    const int64_t i = step.tensor.find_dim(DimRole::QueryPos) >= 0 ? index[static_cast<size_t>(step.tensor.find_dim(DimRole::QueryPos))] : 0;
    const int64_t j = step.tensor.find_dim(DimRole::KeyPos) >= 0 ? index[static_cast<size_t>(step.tensor.find_dim(DimRole::KeyPos))] : 0;
    switch (e.rule) {
        case CellRule::Given: check_flows(t, e); break;
        case CellRule::Parameter: FAIL("a step cell is never a parameter"); break;
        case CellRule::NotExplained: FAIL("every attention step is explained"); break;
        case CellRule::DotProduct: check_dot_product(t, e); break;
        case CellRule::Scale:
            CHECK(close(e.factor, 1.0 / std::sqrt(static_cast<double>(t.config.head_dim()))));
            CHECK(close(e.operand_value * e.factor, e.value));
            break;
        case CellRule::MaskKept: CHECK(e.value == e.operand_value); break;
        case CellRule::MaskFilled:
            CHECK(std::isinf(e.value));
            if (e.mask_reason == MaskReason::Causal) CHECK(j > i);
            if (e.mask_reason == MaskReason::Padding) CHECK(j >= e.valid_length);
            if (e.mask_reason == MaskReason::Custom) CHECK(t.find(step.id)->provenance.custom_mask);
            CHECK(e.mask_reason != MaskReason::None);
            break;
        case CellRule::Softmax: check_softmax(t, e); break;
        case CellRule::FullyMaskedRow: CHECK(e.value == 0.0f); break;
        case CellRule::DropoutKept:
            CHECK(close(e.factor, 1.0 / (1.0 - t.config.dropout)));
            CHECK(close(e.operand_value * e.factor, e.value));
            CHECK(e.dropout_draw >= t.config.dropout);  // the replayed draw agrees with the data
            break;
        case CellRule::DropoutDropped:
            CHECK(e.value == 0.0f);
            CHECK(e.dropout_draw < t.config.dropout);
            break;
        case CellRule::Move:
            CHECK(e.value == e.operand_value);
            if (step.is_view) {  // a view reads the very same storage element
                const Tensor& src = t.find(e.operand.step)->tensor;
                CHECK(step.tensor.offset() + step.tensor.offset_of(index) == src.offset() + src.offset_of(e.operand.index));
            }
            break;
    }
}

void check_trace(const Trace& t, uint32_t seed) {
    std::mt19937 rng(seed);
    for (const Step& step : t.steps)
        for (const auto& index : sample_cells(step.tensor, rng)) check_cell(t, step, index);
    // Weight and bias cells: corners and the middle of each matrix.
    for (WeightId w : {WeightId::Wq, WeightId::Wk, WeightId::Wv, WeightId::Wo}) {
        int64_t rows = 0, cols = 0;
        weight_shape(t, w, rows, cols);
        for (const auto& rc : {std::pair<int64_t, int64_t>{0, 0}, {rows - 1, cols - 1}, {rows / 2, cols / 2}}) {
            const CellExplanation e = explain_cell(t, CellAddress::of_weight(w, rc.first, rc.second));
            REQUIRE(e.valid);
            CHECK(e.rule == CellRule::Parameter);
            check_flows(t, e);
            if (t.weights().has_bias()) check_flows(t, explain_cell(t, CellAddress::of_bias(w, rc.first)));
        }
    }
}

AttentionConfig base_config() {
    AttentionConfig c;
    c.batch = 2;
    c.seq_len = 5;
    c.hidden_dim = 12;
    c.num_heads = 3;
    return c;
}

}  // namespace

TEST_CASE("explain_cell's terms recombine to every step's recorded value in every variant") {
    for (Variant variant : {Variant::Split, Variant::Fused, Variant::Stacked}) {
        AttentionConfig c = base_config();
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
    AttentionConfig c = base_config();
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
    AttentionConfig c = base_config();
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
    Result<Trace> t = run_attention(base_config());
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
