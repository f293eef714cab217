// Runs a Model on token ids, every layer for real, keeping every intermediate.
//
// The attention inside each layer is the project's own forward (run_attention), so
// the trace of any layer is the same attention trace the random-weights mode shows;
// layer k's input is what layers 0..k-1 really produced.
#pragma once

#include <vector>

#include "core/dims.h"
#include "core/kv_cache.h"
#include "core/model/mlp.h"
#include "core/model/model.h"
#include "core/result.h"
#include "core/trace.h"

namespace attn {

// One layer's numbers. L tokens, D = hidden_dim.
struct LayerRun {
    Mat input;       // (L, D) the residual stream entering the layer
    Mat ln1;         // (L, D) LN1(input): the attention's `input` step
    Trace attention; // the full attention trace of this layer (its `out` is (1, L, D))
    Mat resid_attn;  // (L, D) input + attention out
    Mat ln2;         // (L, D) LN2(resid_attn)             MLP models only
    MlpResult mlp;   // (L, F), (L, F), (L, D)             MLP models only
    Mat output;      // (L, D) resid_attn (+ mlp.out): the next layer's input
};

// The whole pass, or a block of rows against per-layer KV caches (run_model_block): then
// every (L, .) below holds the block's rows only, (count, .), and each layer's attention
// trace is the block's (core/attention.h, run_attention_block).
struct ModelRun {
    QueryBlock block;        // count 0: the whole pass over rows 0..L-1
    Mat token_embedding;     // (L, D) rows of tok_emb for the ids
    Mat position_embedding;  // (L, D) rows 0..L-1 of pos_emb; zeros for a RoPE model
    Mat embedding_sum;       // (L, D) their sum: layer 0's input
    std::vector<LayerRun> layers;
    Mat final_norm;          // (L, D) LN_f(last layer's output)
    Mat logits;              // (L, V)
    Mat probs;               // (L, V) softmax of each row of logits
    std::vector<int> predicted_ids;  // (L) argmax of each row of logits
};

// The attention configuration of one layer of `model` on L tokens (B = 1).
AttentionConfig layer_attention_config(const ModelSpec& spec, int seq_len, Variant variant = Variant::Split);

// Runs every layer on `ids` (1 <= L <= max_len, ids < V; checked: a message otherwise).
// `variant` is how the attention is written (split, stacked, fused: the same numbers).
Result<ModelRun> run_model(const Model& model, const std::vector<int>& ids, Variant variant = Variant::Split);

// Rows [block.first, block.first + block.count) of `ids` through every layer, each layer's
// attention a block against caches[layer] (made when empty; cut back to block.first
// otherwise), as a generating model computes them. `seq_len` is the L of every layer's
// configuration (the whole generation's length: block end <= seq_len <= max_len). The
// prefill is the block {0, P}; decode step p the block {p, 1}. Each row equals the same row
// of run_model on ids[0 .. seq_len) within float rounding.
Result<ModelRun> run_model_block(const Model& model, const std::vector<int>& ids, QueryBlock block, int seq_len,
                                 std::vector<KvCache>& caches, Variant variant = Variant::Split);

// Row softmax in double, written back as float.   (N, V) -> (N, V)
Mat softmax_rows_of(const Eigen::Ref<const Mat>& logits);

}  // namespace attn
