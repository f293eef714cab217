// explain_cell: where one number of a trace came from, as data.
//
// Given a cell of any step (or of a weight matrix or bias), it returns the terms that
// produced the recorded value with the same arithmetic the forward used, and the cells
// of earlier steps to highlight. Pure and display-free: the inspector, tooltips and
// exports render this and never recompute a cell themselves (STYLE.md point 14).
//
// Vocabulary as in dims.h: B, L, S, E, H, d_h; N is L or S; `in` a projection's input width.
#pragma once

#include <cstdint>
#include <vector>

#include "core/trace.h"

namespace attn {

// One cell: of a step's tensor (a full index), of a weight matrix (row, col as nn.Linear
// stores it, (out, in)) or of a bias (row). Wqkv addresses the stacked (3E, E) matrix.
struct CellAddress {
    enum class Kind : uint8_t { Step, Weight, Bias };
    Kind kind = Kind::Step;
    StepId step = StepId::Input;   // Kind::Step
    std::vector<int64_t> index;    // Kind::Step: one entry per dimension of the step's tensor
    WeightId weight = WeightId::Wq;  // Kind::Weight / Kind::Bias
    int64_t row = 0, col = 0;        // Kind::Weight: (row, col); Kind::Bias: row

    static CellAddress of_step(StepId step, std::vector<int64_t> index);
    static CellAddress of_weight(WeightId weight, int64_t row, int64_t col);
    static CellAddress of_bias(WeightId weight, int64_t row);
    bool operator==(const CellAddress& o) const {
        return kind == o.kind && step == o.step && index == o.index && weight == o.weight && row == o.row && col == o.col;
    }
};

// How the terms combine into the value.
enum class CellRule : uint8_t {
    Given,           // an input: nothing produced it; `flows` says where it goes
    Parameter,       // a weight or bias element; `flows` says where it goes
    DotProduct,      // value = sum of the terms' products (+ bias): projections, scores, weighted sums
    Scale,           // value = operand * factor
    MaskKept,        // value = operand (the mask allowed this key)
    MaskFilled,      // value = -inf (the mask hid this key; `mask_reason` says why)
    Softmax,         // value = exp(operand - row_max) * (1 / exp_sum)
    FullyMaskedRow,  // every key of the row was masked: the weight is 0, not NaN
    DropoutKept,     // value = operand * factor, factor = 1 / (1 - p)
    DropoutDropped,  // value = 0
    Move,            // value = operand: the same number read from another step (no arithmetic)
    NotExplained,    // a model step (lookup, add, norm, prediction) this function does not break down yet
};

// Why a mask hid a key (or None when it kept it).
enum class MaskReason : uint8_t { None, Causal, Padding, Custom };

// One term of a sum. DotProduct: a * b = value. Softmax: a is the score of key k and
// value = exp(a - row_max); `output` is that key's recorded weight.
struct Term {
    int64_t k = 0;       // the summation index: input feature i, head feature d or key j
    CellAddress a, b;    // b is unused for softmax terms
    float a_value = 0.0f, b_value = 0.0f;
    float value = 0.0f;  // the product, or the exponential
    float output = 0.0f; // softmax only
};

// A set of cells of one step, each a full index into its tensor.
struct StepCells {
    StepId step = StepId::Input;
    std::vector<std::vector<int64_t>> cells;
};

struct CellExplanation {
    bool valid = false;  // false for an address outside the trace (nothing else is set)
    CellAddress cell;
    float value = 0.0f;  // the recorded value
    CellRule rule = CellRule::Given;

    // Terms (DotProduct, Softmax): every term in index order when there are few, else the
    // largest by magnitude first and the rest summarised, so the sum still closes:
    // sum(terms) + omitted_sum (+ bias) == sum.
    std::vector<Term> terms;
    int64_t term_count = 0;     // all terms, listed or not
    int64_t omitted_terms = 0;  // term_count - terms.size()
    double omitted_sum = 0.0;   // their values' sum
    bool has_bias = false;
    CellAddress bias_cell;
    float bias = 0.0f;
    double sum = 0.0;           // DotProduct: all terms plus bias, in double; Softmax: exp_sum
    bool sum_rounds_visibly = false;  // the double sum and the float32 value differ at display precision
    // Out only, H > 1: the sum of the terms that read head h's part of the concatenation.
    std::vector<double> head_subtotals;

    // Scale, Mask*, Softmax, Dropout*, Move: the one source cell this value was computed from.
    CellAddress operand;
    float operand_value = 0.0f;
    float factor = 0.0f;        // Scale: 1/sqrt(d_h); DropoutKept / DropoutDropped: 1/(1-p)

    MaskReason mask_reason = MaskReason::None;
    MaskKind mask_kind = MaskKind::None;  // what the step applied (config)
    int valid_length = -1;      // Padding: the batch item's valid key count

    float row_max = 0.0f;       // Softmax: the largest entry of the row (masked entries are -inf)
    float exp_value = 0.0f;     // Softmax: exp(operand - row_max) for this cell's key
    float exp_sum = 0.0f;       // Softmax: sum of the row's exponentials, float32 as the core sums
    float inv_sum = 0.0f;       // Softmax: 1 / exp_sum, what the core multiplies by

    float dropout_p = 0.0f;     // Dropout: the probability of dropping
    float dropout_draw = 0.0f;  // Dropout: the uniform draw in [0, 1) for this cell (dropped when < p)

    bool is_view = false;       // Move: the step shares storage with its source (no copy)

    // Given / Parameter: the cells that read this number, one entry per step.
    std::vector<StepCells> flows;
    // Cells of earlier steps (or, for inputs and weights, later steps) to highlight.
    std::vector<StepCells> highlights;
    int64_t highlight_count() const;
};

struct ExplainOptions {
    int all_terms_up_to = 16;  // list every term when there are at most this many
    int largest_terms = 6;     // otherwise list this many, largest |value| first
};

// The explanation of `cell`; invalid when the address names no cell of this trace.
CellExplanation explain_cell(const Trace& trace, const CellAddress& cell, const ExplainOptions& options = {});

// "W_q", "W_k", "W_v", "W_qkv", "W_o": the weight as the formulas write it.
const char* weight_symbol(WeightId weight);
// "b_q", ... "b_o": its bias.
const char* bias_symbol(WeightId weight);

// The value stored at `cell`; NaN when the address names no cell of this trace.
float value_at_cell(const Trace& trace, const CellAddress& cell);
// The (rows, cols) of a weight matrix (Wqkv: the three stacked); its bias has `rows` entries
// (0 without bias).
void weight_shape(const Trace& trace, WeightId weight, int64_t& rows, int64_t& cols);

}  // namespace attn
