// AttentionConfig: everything that decides the shape of one attention forward,
// and the validation that turns bad choices into messages a user can act on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/dtype_round.h"
#include "core/mask_spec.h"
#include "core/result.h"
#include "core/rope.h"
#include "core/tensor.h"

namespace attn {

enum class MaskKind { None, Causal, Padding };
// The seeds' three ways to write the same computation (same weights -> same `out`).
enum class Variant {
    Split,    // one projection per Q/K/V, then view + transpose into heads (the default)
    Stacked,  // H independent single-head modules, outputs concatenated
    Fused,    // one (3E x E) projection, sliced into Q, K, V (self-attention only)
};

const char* to_string(MaskKind mask);
const char* to_string(Variant variant);
Result<MaskKind> parse_mask(const std::string& text);
Result<Variant> parse_variant(const std::string& text);

// `--scale`: what the scores are multiplied by before the softmax.
enum class ScaleKind {
    Head,    // 1/sqrt(d_h), the default
    Hidden,  // 1/sqrt(E): the classic bug of scaling by the model width
    None,    // raw dot products
    Value,   // any number, multiplied in
};
struct ScaleChoice {
    ScaleKind kind = ScaleKind::Head;
    float value = 1.0f;  // only for Value
};
Result<ScaleChoice> parse_scale(const std::string& text);  // "head", "hidden", "none", "0.3"
std::string to_string(const ScaleChoice& scale);

// `--init`: where weights and drawn inputs come from.
enum class InitKind {
    Attnviz,  // AttnViz's own seeded streams (core/rng.h), stable across sizes
    Torch,    // torch.manual_seed(seed) + the module's construction, replayed (core/torch_replay.h)
};
const char* to_string(InitKind init);
Result<InitKind> parse_init(const std::string& text);  // "torch", "attnviz"

struct AttentionConfig {
    int batch = 1;              // B
    int seq_len = 4;            // L, query length
    int kv_len = 0;             // S; 0 means "same as seq_len"
    int hidden_dim = 6;         // E
    int num_heads = 2;          // H
    int kdim = 0;               // key input width; 0 means d_in
    int vdim = 0;               // value input width; 0 means d_in
    bool cross_attention = false;  // separate key/value inputs (implied by S != L, kdim/vdim != E)
    bool bias = true;
    MaskKind mask = MaskKind::None;
    std::vector<int> valid_lengths;  // Padding: keys j >= valid_lengths[b] are masked (one per batch item)
    float dropout = 0.0f;       // p in [0, 1); inverted dropout, survivors scaled by 1/(1-p)
    uint64_t dropout_seed = 0;
    uint64_t seed = 0;          // default weights and inputs
    Variant variant = Variant::Split;
    uint64_t max_memory_bytes = 2ull << 30;  // refuse traces estimated above this

    // the articles' options (names as on the command line and in the manifest).
    int input_dim = 0;            // d_in, the query input width; 0 means E (W_q is (E, d_in))
    bool no_qkv_bias = false;     // q/k/v projections without bias (the output keeps its own)
    bool no_out_bias = false;     // output projection without bias
    MaskPresets mask_presets;     // presets combined with `mask` (left-padding, window, several at once)
    int window = 0;               // window preset: each query sees its `window` latest keys
    Tensor mask_file;             // --mask-file as read (rank 1..4); empty when none
    bool mask_file_is_boolean = false;  // True = masked out; otherwise float values added to the scores
    std::string mask_file_path;   // for the manifest only
    MaskFill mask_fill;           // what boolean masks write into the scores (default -inf)
    ScaleChoice scale;            // --scale
    bool mask_before_scale = false;  // mask the raw scores, then scale (the from-scratch order)
    bool rope = false;            // rotary position embedding on q and k after the head split
    double rope_base = 10000.0;
    RopeStyle rope_style = RopeStyle::Half;
    int position_offset = 0;      // positions position_offset .. position_offset + L - 1
    int num_kv_heads = 0;         // H_kv key/value heads (GQA / MQA); 0 means H
    int decode_from = 0;          // P: rows 0..P-1 are the prefill, rows P..L-1 arrive one per
                                  // decode step against the KV cache (core/kv_cache.h); 0: one pass
    bool no_out_proj = false;     // the trace ends at concat
    bool add_bias_kv = false;     // nn.MultiheadAttention's learned extra key/value column
    bool add_zero_attn = false;   // nn.MultiheadAttention's zero key/value column
    bool seq_first = false;       // input files are (L, B, E) (batch_first=False); only IO reads it
    bool average_weights = false; // record attn_weights_avg (B, L, S), the mean over heads
    DType dtype = DType::Float32; // emulated compute precision (rounding after every op)

    // Issue 10: recipes and PyTorch replay.
    std::string recipe;           // the recipe this configuration started from (core/recipe.h); "" for none
    InitKind init = InitKind::Attnviz;
    // Train-mode dropout as torch draws it: (B, H, L, S) in C order, 1 = kept. Filled by the
    // problem builder under InitKind::Torch; when empty (or of another size) the core
    // draws its own per-head streams from dropout_seed.
    std::vector<uint8_t> dropout_keep;

    // Resolved sizes (after the 0 = "default" rules).
    int batch_size() const { return batch; }
    int L() const { return seq_len; }
    int S() const { return kv_len > 0 ? kv_len : seq_len; }
    // Key columns of the score maps: S plus the bias_k and zero-attention columns.
    int S_total() const { return S() + (add_bias_kv ? 1 : 0) + (add_zero_attn ? 1 : 0); }
    int d_in() const { return input_dim > 0 ? input_dim : hidden_dim; }
    int H_kv() const { return num_kv_heads > 0 ? num_kv_heads : num_heads; }
    int kv_width() const { return H_kv() * head_dim(); }  // rows of W_k and W_v
    bool qkv_bias() const { return bias && !no_qkv_bias; }
    bool out_bias() const { return bias && !no_out_bias && !no_out_proj; }
    int E() const { return hidden_dim; }
    int H() const { return num_heads; }
    int head_dim() const { return num_heads > 0 ? hidden_dim / num_heads : 0; }
    int key_dim() const { return kdim > 0 ? kdim : d_in(); }    // self-attention: keys read X
    int value_dim() const { return vdim > 0 ? vdim : d_in(); }
    // True when key/value come from their own inputs rather than the query input.
    bool is_cross() const;
    // Every mask source together: `mask` and mask_presets, valid lengths, window, file, fill.
    MaskSpec mask_spec() const;
    bool has_mask() const;  // any preset or a mask file
    float scale_factor() const;  // what attn_scaled multiplies by
};

// Checks sizes, divisibility, mask lengths, dropout and the memory budget
// (estimate_peak_bytes against max_memory_bytes).
// The message names the offending values and what would be valid.
Status validate(const AttentionConfig& config);

// Decode steps against a KV cache equal the rows of the whole pass only for a causal
// (or sliding-window) self-attention in evaluation mode whose keys are its own rows:
// refuses cross-attention, dropout, --add-bias-kv and --add-zero-attn, and no causal mask.
Status check_decodable(const AttentionConfig& config);

// Bytes of float storage the full trace will hold (views are free), computed from
// the shapes alone so it can be checked before anything is allocated.
uint64_t estimate_trace_bytes(const AttentionConfig& config);

// The divisors of hidden_dim nearest to num_heads (below and above, when they exist).
std::vector<int> nearest_valid_heads(int hidden_dim, int num_heads);
// The multiples of num_heads nearest to hidden_dim (below and above).
std::vector<int> nearest_valid_hidden(int hidden_dim, int num_heads);

// The trace plus the weights: what validate() compares with max_memory_bytes.
uint64_t estimate_peak_bytes(const AttentionConfig& config);

// "512 MiB", "1.5 GiB": for messages.
std::string format_bytes(uint64_t bytes);

}  // namespace attn
