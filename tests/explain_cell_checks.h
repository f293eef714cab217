// Checks of explain_cell shared by test_explain_cell.cpp and test_explain_cell_more.cpp:
// for a cell, the terms explain_cell returns are recombined here, independently (own
// loops, own formulas from the configuration, and for models the model's own weights
// and run), and must give the recorded value; the cells they quote and highlight exist.
//
// Rounding: with --dtype bfloat16/float16 the forward rounds every op's result. An
// element-wise op (scale, mask, dropout, rotation, head mean, add) is checked exactly:
// round_to_dtype(op(terms)) == recorded. A sum computed in another order (dot products
// here in double, the core's GEMM in float) is checked to lie within half a unit in the
// last place of the dtype of the recorded value (plus 1e-6 relative), which is what
// rounding to nearest guarantees.
#pragma once

#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/explain_cell.h"
#include "core/model/model.h"
#include "core/model/model_forward.h"
#include "core/ops.h"

namespace attn::test {

inline bool close(double got, double want, double tol = 1e-6) {
    if (std::isinf(want)) return got == want;
    return std::fabs(got - want) <= tol * std::max(1.0, std::fabs(want));
}

// Half a unit in the last place of `recorded` in `dtype` (0 for float32).
inline double half_ulp(float recorded, DType dtype) {
    if (dtype == DType::Float32) return 0.0;
    const int mantissa_bits = dtype == DType::BFloat16 ? 7 : 10;
    const int min_exponent = dtype == DType::BFloat16 ? -126 : -14;
    int e = 0;
    std::frexp(static_cast<double>(recorded), &e);  // |recorded| in [2^(e-1), 2^e)
    return 0.5 * std::ldexp(1.0, std::max(e - 1, min_exponent) - mantissa_bits);
}

// `exact` (a sum recombined in double) rounds to `recorded` in `dtype`.
inline bool rounds_to(double exact, float recorded, DType dtype) {
    if (std::isinf(recorded)) return exact == recorded;
    return std::fabs(exact - recorded) <= half_ulp(recorded, dtype) * 1.001 + 1e-6 * std::max(1.0, std::fabs(double(recorded)));
}

inline bool exists(const Trace& t, const StepCells& cells) {
    const Step* s = t.find(cells.step);
    if (!s) return false;
    for (const auto& index : cells.cells) {
        if (static_cast<int>(index.size()) != s->tensor.rank()) return false;
        for (int d = 0; d < s->tensor.rank(); ++d)
            if (index[static_cast<size_t>(d)] < 0 || index[static_cast<size_t>(d)] >= s->tensor.dim(d)) return false;
    }
    return true;
}

inline bool highlights_contain(const CellExplanation& e, const CellAddress& cell) {
    for (const StepCells& h : e.highlights)
        if (h.step == cell.step && std::find(h.cells.begin(), h.cells.end(), cell.index) != h.cells.end()) return true;
    return false;
}

// Corners, the middle and a few random cells of a tensor.
inline std::vector<std::vector<int64_t>> sample_cells(const Tensor& t, std::mt19937& rng, int random_cells = 4) {
    std::vector<std::vector<int64_t>> out;
    std::vector<int64_t> first(static_cast<size_t>(t.rank()), 0), last, middle;
    for (int d = 0; d < t.rank(); ++d) {
        last.push_back(t.dim(d) - 1);
        middle.push_back(t.dim(d) / 2);
    }
    out = {first, last, middle};
    for (int k = 0; k < random_cells; ++k) {
        std::vector<int64_t> idx;
        for (int d = 0; d < t.rank(); ++d) idx.push_back(std::uniform_int_distribution<int64_t>(0, t.dim(d) - 1)(rng));
        out.push_back(idx);
    }
    return out;
}

// What the model side of a check may compare with (null for a plain attention trace).
struct ModelReference {
    const Model* model = nullptr;
    const ModelRun* run = nullptr;  // run_model on the trace's tokens, made by the test
};

// The terms of a sum, checked against the cells they name and recombined.
inline void check_dot_product(const Trace& t, const CellExplanation& e) {
    double sum = e.omitted_sum, magnitude = std::fabs(e.omitted_sum);
    for (const Term& term : e.terms) {
        CHECK(term.a_value == value_at_cell(t, term.a));
        CHECK(term.b_value == value_at_cell(t, term.b));
        CHECK(term.value == term.a_value * term.b_value);
        sum += term.value;
        magnitude += std::fabs(term.value);
    }
    CHECK(e.omitted_terms == e.term_count - static_cast<int64_t>(e.terms.size()));
    if (e.has_bias) {
        CHECK(e.bias == value_at_cell(t, e.bias_cell));
        sum += e.bias;
    }
    // The recorded value was summed in float32: besides its own rounding it may carry the
    // accumulation error of its terms, which grows with their sizes, not with the result's
    // (terms of +-40 that cancel to -0.42 in a trained model's scores): n * 2^-24 * sum |term|.
    const double accumulation = static_cast<double>(e.term_count) * std::ldexp(magnitude, -24);
    CHECK_MESSAGE((rounds_to(sum, e.value, t.config.dtype) || std::fabs(sum - e.value) <= accumulation),
                  "terms sum to ", sum, ", recorded ", e.value, ", sum |term| ", magnitude);
    CHECK(close(e.sum, sum));
}

inline void check_softmax(const Trace& t, const CellExplanation& e) {
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
    CHECK_MESSAGE(rounds_to(double(e.exp_value) * e.inv_sum, e.value, t.config.dtype), "exp * 1/sum = ", e.exp_value * e.inv_sum,
                  ", recorded ", e.value);
    if (e.row_fully_masked) CHECK(close(e.value, 1.0 / e.term_count, 1e-2));  // uniform (1e-2: the dtype's rounding)
}

// An input, token or weight cell flows into cells whose own explanation reads it back.
inline void check_flows(const Trace& t, const CellExplanation& e) {
    REQUIRE_FALSE(e.flows.empty());
    ExplainOptions every;
    every.all_terms_up_to = 1 << 20;
    for (const StepCells& flow : e.flows) {
        REQUIRE_FALSE(flow.cells.empty());
        CHECK(exists(t, flow));
        const CellExplanation into = explain_cell(t, CellAddress::of_step(flow.step, flow.cells.front()), every);
        bool found = false;
        if (into.rule == CellRule::DotProduct) {
            for (const Term& term : into.terms) {
                if (e.cell.kind == CellAddress::Kind::Step)
                    found |= term.a.step == e.cell.step && term.a.index == e.cell.index;
                else if (e.cell.kind == CellAddress::Kind::Weight)
                    found |= term.k == e.cell.col && term.b_value == e.value;
            }
            if (e.cell.kind == CellAddress::Kind::Bias) found = into.has_bias && into.bias == e.value;
        } else {
            found = e.cell.kind == CellAddress::Kind::Step && highlights_contain(into, e.cell);
        }
        const std::string into_step = step_name(flow.step);
        CAPTURE(into_step);
        CHECK(found);
    }
}

// The fill a boolean mask writes, from the configuration (torch.finfo(dtype).min for "min").
inline float expected_fill(const AttentionConfig& c) {
    float fill = 0;
    switch (c.mask_fill.kind) {
        case MaskFillKind::NegativeInfinity: fill = -std::numeric_limits<float>::infinity(); break;
        case MaskFillKind::Negative1e20: fill = -1e20f; break;
        case MaskFillKind::DtypeLowest:
            fill = c.dtype == DType::Float32 ? -3.4028234663852886e38f : c.dtype == DType::BFloat16 ? -3.3895313892515355e38f : -65504.0f;
            break;
        case MaskFillKind::Value: fill = c.mask_fill.value; break;
    }
    return round_to_dtype(c.dtype, fill);
}

// The mask file's value for (b, h, i, j) by PyTorch's broadcasting ((B, L, S) read as (B, 1, L, S)).
inline float mask_file_at(const AttentionConfig& c, int64_t b, int64_t h, int64_t i, int64_t j) {
    const Tensor& f = c.mask_file;
    std::vector<int64_t> four = f.shape();
    if (four.size() == 3) four = {four[0], 1, four[1], four[2]};
    while (four.size() < 4) four.insert(four.begin(), 1);
    const int64_t full[4] = {b, h, i, j};
    int64_t flat = 0;
    for (size_t d = 0; d < 4; ++d) flat = flat * four[d] + (four[d] == 1 ? 0 : full[d]);
    return f.to_vector()[static_cast<size_t>(flat)];
}

// Whether the configuration's presets or boolean file hide key j from query i (b, h), by
// the presets' own definitions (core/mask_spec.h), and whether `reason` is one of them.
inline bool config_hides(const AttentionConfig& c, int64_t b, int64_t h, int64_t i, int64_t j, MaskReason reason = MaskReason::None) {
    const MaskSpec s = c.mask_spec();
    const int valid = s.valid_lengths.empty() ? 0 : s.valid_lengths.size() == 1 ? s.valid_lengths[0] : s.valid_lengths[static_cast<size_t>(b)];
    const bool causal = s.presets.causal && j > i;
    const bool window = s.presets.window && (j > i || i - j >= s.window);
    const bool padding = s.presets.padding && j >= valid;
    const bool left = s.presets.left_padding && j < c.S() - valid;
    const bool file = !s.file.empty() && s.file_is_boolean && mask_file_at(c, b, h, i, j) != 0.0f;
    switch (reason) {
        case MaskReason::Causal: return causal;
        case MaskReason::Window: return window;
        case MaskReason::Padding: return padding;
        case MaskReason::LeftPadding: return left;
        case MaskReason::FileBoolean: return file;
        case MaskReason::FileFloat: return !s.file.empty() && !s.file_is_boolean && mask_file_at(c, b, h, i, j) <= -1e19f;
        case MaskReason::Custom: return false;
        case MaskReason::None: break;
    }
    return j < c.S() && (causal || window || padding || left || file);
}

inline double expected_scale(const AttentionConfig& c) {
    switch (c.scale.kind) {
        case ScaleKind::Head: return 1.0 / std::sqrt(double(c.E() / c.H()));
        case ScaleKind::Hidden: return 1.0 / std::sqrt(double(c.E()));
        case ScaleKind::None: return 1.0;
        case ScaleKind::Value: return c.scale.value;
    }
    return 0.0;
}

void check_model_cell(const Trace& t, const Step& step, const std::vector<int64_t>& index, const CellExplanation& e,
                      const ModelReference& ref);
void check_option_cell(const Trace& t, const Step& step, const std::vector<int64_t>& index, const CellExplanation& e);

// Every check of one cell; the option rules and the models' rules are checked in
// check_option_cell / check_model_cell (explain_cell_checks.cpp).
inline void check_cell(const Trace& t, const Step& step, const std::vector<int64_t>& index, const ModelReference& ref = {}) {
    const std::string name = step.name();
    CAPTURE(name);
    CAPTURE(shape_text(index));
    const CellExplanation e = explain_cell(t, CellAddress::of_step(step.id, index));
    REQUIRE(e.valid);
    CAPTURE(static_cast<int>(e.rule));
    CHECK(e.value == step.tensor.at(index));
    CHECK(e.dtype == t.config.dtype);
    for (const StepCells& h : e.highlights) {
        const std::string highlighted = step_name(h.step);
        CAPTURE(highlighted);
        CHECK(exists(t, h));
    }
    // Rules whose sources are no step of this trace: a table (RoPE), a parameter (bias_k),
    // an earlier layer; everything else highlights what it read.
    const bool sourceless = e.rule == CellRule::Given || e.rule == CellRule::RopeAngle || e.rule == CellRule::ExtraKey ||
                            e.rule == CellRule::PreviousLayer || e.rule == CellRule::Cached;
    if (!sourceless) CHECK(e.highlight_count() > 0);
    const DType dtype = t.config.dtype;
    const int64_t i = step.tensor.find_dim(DimRole::QueryPos) >= 0 ? index[static_cast<size_t>(step.tensor.find_dim(DimRole::QueryPos))] + t.block.first : 0;
    const int64_t j = step.tensor.find_dim(DimRole::KeyPos) >= 0 ? index[static_cast<size_t>(step.tensor.find_dim(DimRole::KeyPos))] : 0;
    const int64_t b = index[0];
    const int64_t h = step.tensor.find_dim(DimRole::Head) >= 0 ? index[static_cast<size_t>(step.tensor.find_dim(DimRole::Head))] : 0;
    if (e.rule == CellRule::Scale || e.rule == CellRule::MaskKept || e.rule == CellRule::MaskAdded || e.rule == CellRule::MaskFilled ||
        e.rule == CellRule::Move || e.rule == CellRule::DropoutKept || e.rule == CellRule::DropoutDropped || e.rule == CellRule::Repeat)
        CHECK(e.operand_value == value_at_cell(t, e.operand));
    switch (e.rule) {
        case CellRule::Given: check_flows(t, e); break;
        case CellRule::Cached:  // a position before the block: computed by an earlier step
            CHECK(e.cached_position < t.block.first);
            CHECK(e.cached_position == index[2]);
            break;
        case CellRule::Parameter: FAIL("a step cell is never a parameter"); break;
        case CellRule::DotProduct: check_dot_product(t, e); break;
        case CellRule::Scale:
            CHECK(close(e.factor, expected_scale(t.config)));
            CHECK(e.scale_kind == t.config.scale.kind);
            CHECK(round_to_dtype(dtype, e.operand_value * e.factor) == e.value);
            break;
        case CellRule::MaskKept:
            CHECK(e.value == e.operand_value);
            CHECK_FALSE(config_hides(t.config, b, h, i, j));
            if (!t.config.mask_file.empty() && !t.config.mask_file_is_boolean && j < t.config.S())
                CHECK(mask_file_at(t.config, b, h, i, j) == 0.0f);
            CHECK((e.extra_key != ExtraKeyKind::None) == (j >= t.config.S()));
            break;
        case CellRule::MaskAdded:
            CHECK_FALSE(config_hides(t.config, b, h, i, j));
            REQUIRE_FALSE(t.config.mask_file.empty());
            CHECK(e.mask_addend == mask_file_at(t.config, b, h, i, j));
            CHECK(round_to_dtype(dtype, e.operand_value + e.mask_addend) == e.value);
            break;
        case CellRule::MaskFilled:
            CHECK(e.value == expected_fill(t.config));
            CHECK(e.mask_fill == e.value);
            REQUIRE_FALSE(e.mask_reasons.empty());
            CHECK(e.mask_reason == e.mask_reasons.front());
            for (MaskReason r : e.mask_reasons) {
                CAPTURE(static_cast<int>(r));
                if (r == MaskReason::Custom) CHECK(t.find(step.id)->provenance.custom_mask);
                else CHECK(config_hides(t.config, b, h, i, j, r));
            }
            break;
        case CellRule::Softmax: check_softmax(t, e); break;
        case CellRule::FullyMaskedRow:  // only a row whose every score is -inf (a finite fill gives Softmax, uniform)
            CHECK(e.value == 0.0f);
            REQUIRE(e.highlights.size() == 1);
            for (const auto& cell : e.highlights[0].cells) CHECK(t.find(e.highlights[0].step)->tensor.at(cell) == -std::numeric_limits<float>::infinity());
            break;
        case CellRule::DropoutKept:
            CHECK(close(e.factor, 1.0 / (1.0 - t.config.dropout)));
            CHECK(round_to_dtype(dtype, e.operand_value * e.factor) == e.value);
            CHECK(e.dropout_draw >= t.config.dropout);  // the replayed draw agrees with the data
            break;
        case CellRule::DropoutDropped:
            CHECK(e.value == 0.0f);
            CHECK(e.dropout_draw < t.config.dropout);
            break;
        case CellRule::Move:
            CHECK(e.value == e.operand_value);
            if (!e.flows.empty()) check_flows(t, e);  // a model's input: from the norm, into the projections
            if (e.is_view) {  // a view reads the very same storage element
                const Tensor& src = t.find(e.operand.step)->tensor;
                CHECK(step.tensor.offset() + step.tensor.offset_of(index) == src.offset() + src.offset_of(e.operand.index));
            }
            break;
        case CellRule::ExtraKey:
        case CellRule::RopeAngle:
        case CellRule::Rotation:
        case CellRule::Repeat:
        case CellRule::Mean: check_option_cell(t, step, index, e); break;
        case CellRule::Lookup:
        case CellRule::Add:
        case CellRule::Norm:
        case CellRule::Prediction:
        case CellRule::Argmax:
        case CellRule::PreviousLayer: check_model_cell(t, step, index, e, ref); break;
    }
}

inline void check_trace(const Trace& t, uint32_t seed, const ModelReference& ref = {}, int random_cells = 4) {
    std::mt19937 rng(seed);
    for (const Step& step : t.steps)
        for (const auto& index : sample_cells(step.tensor, rng, random_cells)) check_cell(t, step, index, ref);
    // Weight and bias cells: corners and the middle of each matrix.
    for (WeightId w : {WeightId::Wq, WeightId::Wk, WeightId::Wv, WeightId::Wo}) {
        int64_t rows = 0, cols = 0;
        weight_shape(t, w, rows, cols);
        if (rows == 0) continue;  // no output projection
        for (const auto& rc : {std::pair<int64_t, int64_t>{0, 0}, {rows - 1, cols - 1}, {rows / 2, cols / 2}}) {
            const CellExplanation e = explain_cell(t, CellAddress::of_weight(w, rc.first, rc.second));
            REQUIRE(e.valid);
            CHECK(e.rule == CellRule::Parameter);
            check_flows(t, e);
            const CellExplanation bias = explain_cell(t, CellAddress::of_bias(w, rc.first));
            if (bias.valid) check_flows(t, bias);
        }
    }
}

}  // namespace attn::test
