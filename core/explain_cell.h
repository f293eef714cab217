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

// How the terms combine into the value. With `--dtype bfloat16|float16` the forward
// rounds every op's result to that format (core/dtype_round.h); each rule below then
// gives the value before that rounding, and round_to_dtype(dtype, it) is what was
// recorded (CellExplanation::dtype says which format; float32 rounds nothing).
enum class CellRule : uint8_t {
    Given,           // an input: nothing produced it; `flows` says where it goes
    Parameter,       // a weight or bias element; `flows` says where it goes
    DotProduct,      // value = sum of the terms' products (+ bias): projections, scores, weighted sums
    Scale,           // value = operand * factor (`scale_kind` says which factor)
    MaskKept,        // value = operand (no mask source hid this key)
    MaskAdded,       // value = operand + mask_addend (a float mask file adds to the score)
    MaskFilled,      // value = mask_fill (a boolean source hid this key; `mask_reasons` say which)
    Softmax,         // value = exp(operand - row_max) * (1 / exp_sum)
    FullyMaskedRow,  // every key of the row was masked with -inf: the weight is 0, not NaN
    DropoutKept,     // value = operand * factor, factor = 1 / (1 - p)
    DropoutDropped,  // value = 0
    Move,            // value = operand: the same number read from another step (no arithmetic);
                     //   a model's `input` (the norm's own storage) also lists its `flows`
    ExtraKey,        // an appended key/value row: value = bias_k / bias_v (extra_key_parameter) or 0
    RopeAngle,       // rope_cos / rope_sin: value = cos or sin of rope.angle = position * inv_freq
    Rotation,        // q_rot / k_rot: value = terms[0].value + terms[1].value
                     //   = x[c] * cos[n, c]  +  rope.sign * x[partner] * sin[n, c]
    Repeat,          // k_repeated / v_repeated: value = operand, of key/value head kv_head
    Cached,          // k_cache / v_cache at an earlier position: computed by the prefill or the
                     //   decode step that first saw that position (cached_position), read from the cache
    Mean,            // attn_weights_avg: value = sum (the terms, one per head, in float) / divisor
    Lookup,          // token_embedding / position_embedding: value = row lookup.row, column lookup.column of a table
    Add,             // embedding_sum, residual: value = operand + operand2
    Norm,            // norm: value = (operand - mean) * inv_std * gamma + beta (RMSNorm: mean 0, beta NaN)
    Prediction,      // next_token_probs: value = exp(logit - row_max) / sum, in double, over the final logits
    Argmax,          // predicted_tokens: value = the id of the largest logit (terms: largest first)
    PreviousLayer,   // layer_input: value = operand_value (previous layer after attention) + operand2_value (its MLP)
};

// Why a mask hid a key (or None when it kept it).
enum class MaskReason : uint8_t { None, Causal, Padding, LeftPadding, Window, FileBoolean, FileFloat, Custom };

// The appended key/value rows of nn.MultiheadAttention (core/extra_keys.h).
enum class ExtraKeyKind : uint8_t { None, BiasKv, ZeroAttn };

// The table a Lookup cell was read from.
enum class LookupTable : uint8_t { Token, Position };

// One term of a sum. DotProduct: a * b = value. Softmax: a is the score of key k and
// value = exp(a - row_max); `output` is that key's recorded weight. Rotation: a * b (and
// the sign) rounded to the dtype. Mean: a is head k's weight (value = a_value).
// Prediction / Argmax: k is a token id, a_value its logit (no cell holds logits: `a` is unset).
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
    double sum = 0.0;           // DotProduct: all terms plus bias, in double; Softmax: exp_sum;
                                // Prediction: the exponentials' sum in double; Mean: the heads' float sum
    bool sum_rounds_visibly = false;  // the double sum and the float32 value differ at display precision
    // Out only, H > 1: the sum of the terms that read head h's part of the concatenation.
    std::vector<double> head_subtotals;

    // Scale, Mask*, Softmax, Dropout*, Move: the one source cell this value was computed from.
    CellAddress operand;
    float operand_value = 0.0f;
    float factor = 0.0f;        // Scale: 1/sqrt(d_h) or as --scale says; DropoutKept / DropoutDropped: 1/(1-p)

    MaskReason mask_reason = MaskReason::None;
    MaskKind mask_kind = MaskKind::None;  // what the step applied (config)
    int valid_length = -1;      // Padding, LeftPadding: the batch item's valid key count

    float row_max = 0.0f;       // Softmax, Prediction: the largest entry of the row (masked entries are -inf)
    float exp_value = 0.0f;     // Softmax: exp(operand - row_max) for this cell's key
    float exp_sum = 0.0f;       // Softmax: sum of the row's exponentials, float32 as the core sums
    float inv_sum = 0.0f;       // Softmax: 1 / exp_sum, what the core multiplies by

    float dropout_p = 0.0f;     // Dropout: the probability of dropping
    float dropout_draw = 0.0f;  // Dropout: the uniform draw in [0, 1) for this cell (dropped when < p)

    bool is_view = false;       // Move: the step shares storage with its source (no copy)

    DType dtype = DType::Float32;        // the forward's rounding after every op (see CellRule)
    ScaleKind scale_kind = ScaleKind::Head;  // Scale: which --scale chose `factor`

    // Mask rules and extra key columns.
    std::vector<MaskReason> mask_reasons;  // MaskFilled: every source that hides the key (mask_reason is the first)
    float mask_fill = 0.0f;     // MaskFilled: the fill as the compute dtype holds it (-inf, -1e20, finfo.min, ...)
    float mask_addend = 0.0f;   // MaskAdded: the float mask's value for this cell
    int window = 0;             // Window: the keys a query sees
    ExtraKeyKind extra_key = ExtraKeyKind::None;  // the key column (mask, scores, ...) or row (ExtraKey) is an appended one
    bool row_fully_masked = false;  // Softmax: every real key of the row is hidden, but the fill is finite (uniform row)

    // Add, PreviousLayer: the second summand.
    CellAddress operand2;
    float operand2_value = 0.0f;

    // RopeAngle, Rotation: position n of the table or head vector and its angle.
    struct Rope {
        int64_t position = 0;   // offset + n: the absolute position
        int64_t frequency = 0;  // i: the pair's frequency index
        float inv_freq = 0.0f;  // base^(-2i/d_h)
        float angle = 0.0f;     // position * inv_freq, in float32
        bool sine = false;      // RopeAngle: rope_sin (else rope_cos)
        int64_t partner = 0;    // Rotation: the paired column of this coordinate
        float sign = 0.0f;      // Rotation: -1 for the first of a pair, +1 for the second
    } rope;

    // Repeat: query head h reads key/value head kv_head = h / group_size.
    int kv_head = 0, group_size = 1;
    // Cached: the position of the cached row, and the first position of this block.
    int64_t cached_position = -1, block_first = 0;
    // Mean: the number of heads averaged.
    int divisor = 1;

    // Lookup: row `row` of a (rows, D) table, column `column`; operand is the token cell.
    struct LookupParts {
        LookupTable table = LookupTable::Token;
        int64_t row = 0, rows = 0, column = 0;
    } lookup;

    // Norm: statistics of the input row (in double, as the core), eps, gamma and beta.
    struct NormParts {
        double mean = 0, variance = 0, inv_std = 0;
        double normalized = 0;  // (x - mean) * inv_std
        float eps = 0, gamma = 0, beta = 0;
    } norm;

    // Prediction, Argmax, PreviousLayer: how many layers lie between the shown one and the logits.
    int later_layers = 0;
    int previous_layer = -1;    // PreviousLayer: the layer that produced this input
    bool previous_has_mlp = false;

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
