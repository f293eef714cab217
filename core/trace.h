// Trace: the ordered record of one attention forward, every intermediate tensor
// (numbers only: the words about each step come from app/text at display time).
// Built once by the core, read-only afterwards; the GUI and the exporters only read it.

#pragma once

#include <cassert>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/step_id.h"
#include "core/tensor.h"
#include "core/vocabulary.h"
#include "core/weights.h"

namespace attn {

// "projection", "softmax", ...: the kind of operation (StepKind is declared in core/step_id.h).
const char* to_string(StepKind kind);

// Which of trace.weights a projection used. Wqkv is W_q, W_k, W_v stacked in that
// order ((3E, E)), as the fused variant multiplies them.
enum class WeightId : uint8_t { Wq, Wk, Wv, Wqkv, Wo };
// The parts a weight is made of, stacked by rows: {Wq, Wk, Wv} for Wqkv, itself otherwise.
std::vector<WeightId> weight_parts(WeightId weight);
// The (out, in) matrix and (out) bias of a single part (not Wqkv); the bias is empty
// when the layer has none.
struct LinearParams {
    const Mat& weight;
    const Vec& bias;
};
LinearParams linear_params(const AttentionWeights& weights, WeightId part);

// Where a step's numbers came from, beyond its source steps.
struct Provenance {
    // Projection: y = x W^T + b with W = the rows [weight_row, weight_row + weight_rows)
    // of `weight` (all rows when weight_rows is 0), b the same rows of its bias.
    // Per-head projections (stacked) use rows [h*d_h, (h+1)*d_h) for head h.
    bool has_weight = false;
    WeightId weight = WeightId::Wq;
    bool per_head = false;  // one (d_h, in) block per head (stacked variant)
    // Slice (fused): the columns [column, column + columns) of the source.
    int64_t column = 0, columns = 0;
    // Mask: what was applied; valid_lengths as in the configuration (padding only).
    MaskKind mask = MaskKind::None;
    std::vector<int> valid_lengths;
    bool custom_mask = false;  // a caller-supplied (L, S) mask was combined in
    // K / V: nn.MultiheadAttention's bias_k / bias_v row appended after the projection.
    // K heads / V heads: add_zero_attn's zero row appended after the split.
    bool appended_bias_row = false;
    bool appended_zero_row = false;
    // View / Transpose / Concat: result dimension d reads source dimension
    // permutation[d] (a split view maps the two new dimensions to the one they split).
    std::vector<int> permutation;
};

struct Step {
    StepId id = StepId::Input;
    // "attn_scores": the manifest name and .npy file name, derived from the id.
    const char* name() const { return step_name(id); }
    StepKind kind = StepKind::Input;
    Tensor tensor;            // shape, dim labels and roles live here
    // The steps this one was computed from, in argument order (scores: q_heads, k_heads;
    // context: weights, v_heads).
    std::vector<StepId> sources;
    // The main input: the tensor this step reshapes, slices, scales, masks or normalises,
    // the X a projection multiplies, the one the animation morphs from. By definition
    // sources.front(); input steps have none (ask has_primary_source() first).
    bool has_primary_source() const { return !sources.empty(); }
    StepId primary_source() const {
        assert(!sources.empty() && "an input step has no primary source");
        return sources.front();
    }
    Provenance provenance;
    // True when `tensor` shares storage with its primary source (a view: no bytes copied).
    bool is_view = false;
};

// Set when the trace shows one layer of a trained model; empty `name` otherwise.
struct TraceModelInfo {
    std::string name;                  // "tiny-lm"
    std::string kind;                  // "language" or "algorithmic"
    int layer = 0, layers = 0;         // the layer shown, of how many
    std::vector<std::string> tokens;   // (L) the token strings of the L (and S) axis
    std::vector<std::string> vocabulary;        // (V) labels of next_token_probs' last axis
    TokenUnit token_unit = TokenUnit::Word;     // what one token is (the card says)
    ScriptForms script_forms;                   // each token's form per script (the card's; may be empty)
    std::vector<std::string> predicted_tokens;  // (L) the model's argmax output at each position
    std::vector<std::string> unknown_words;  // the typed words that became <unk> (tokenizer.h's note names them)
    // Numbers of the model run that no step holds but explain_cell needs to break the
    // model's steps down (D = E the model width, V the vocabulary size):
    int64_t position_rows = 0;         // rows of the position table (the model's max_len)
    NormKind norm = NormKind::LayerNorm;  // the card's norm (LN1 and the final norm): its name in the texts
    Vec norm_weight, norm_bias;        // (D) LN1 of the layer shown: gamma and beta (no beta for RMSNorm)
    float norm_eps = 0;                // its epsilon
    Mat logits;                        // (L, V) the last layer's logits (after the final norm and lm_head)
    // Layer > 0: what the previous layer added up to the shown layer's input, (L, D) each:
    // its stream after attention, and its MLP output (empty when the model has no MLP).
    Mat previous_attention_residual, previous_mlp_out;
    bool present() const { return !name.empty(); }
};

// The query rows of the whole (L, S) attention a trace computed against the KV cache
// (run_attention_block): a prefill's rows 0 .. P-1, or a decode step's one row p. A trace of
// the whole pass at once has count 0.
struct QueryBlock {
    int first = 0;  // absolute position of the block's first query row
    int count = 0;  // rows in the block; 0: the whole pass (no cache)
};

struct Trace {
    AttentionConfig config;  // the whole pass's: seq_len stays L in a decode step's trace
    QueryBlock block;        // which rows against the cache (count 0: none)
    // A decode step (one row appended to a cache of earlier rows): that row's absolute
    // position; -1 for a whole pass or a prefill.
    int decode_position() const { return block.count == 1 && block.first > 0 ? block.first : -1; }
    TraceModelInfo model;  // which trained model and tokens, when there is one
    std::vector<Step> steps;
    // The parameters the forward used (W_q, W_k, W_v, W_o and biases), so a view can
    // show "X times W^T" next to a projection. Shared with the problem that ran it, not
    // copied: at E = 512 a copy was 4 MiB of fresh pages (about a thousand page faults)
    // on every slider step. Never null. Not counted in storage_bytes().
    std::shared_ptr<const AttentionWeights> parameters = std::make_shared<const AttentionWeights>();
    const AttentionWeights& weights() const { return *parameters; }
    // (B, H, L): 1 where every key of that query row was masked. With the -inf fill such
    // rows get all-zero weights (PyTorch gives NaN there) and the GUI explains why; with a
    // finite fill (-1e20, min, float masks) they are uniform 1/S, as in PyTorch.
    std::vector<uint8_t> fully_masked_rows;

    const Step* find(StepId id) const;  // null when this forward did not record it
    int index_of(StepId id) const;      // -1 when absent
    // Bytes of distinct storage buffers (views counted once, with their base).
    uint64_t storage_bytes() const;
    // (head, query) rows with every key masked: the flags set above.
    int count_fully_masked_rows() const;
    // Distinct (batch item, query) rows with every key masked in at least one head: what
    // a learner calls "a query row" (one painted row in 2 heads is 1, not 2). With `item`
    // >= 0, only that batch item's rows (the item on screen).
    int count_fully_masked_queries(int item = -1) const;
};

}  // namespace attn
