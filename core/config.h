// AttentionConfig: everything that decides the shape of one attention forward,
// and the validation that turns bad choices into messages a user can act on.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/result.h"

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

struct AttentionConfig {
    int batch = 1;              // B
    int seq_len = 4;            // L, query length
    int kv_len = 0;             // S; 0 means "same as seq_len"
    int hidden_dim = 6;         // E
    int num_heads = 2;          // H
    int kdim = 0;               // key input width; 0 means E
    int vdim = 0;               // value input width; 0 means E
    bool cross_attention = false;  // separate key/value inputs (implied by S != L, kdim/vdim != E)
    bool bias = true;
    MaskKind mask = MaskKind::None;
    std::vector<int> valid_lengths;  // Padding: keys j >= valid_lengths[b] are masked (one per batch item)
    float dropout = 0.0f;       // p in [0, 1); inverted dropout, survivors scaled by 1/(1-p)
    uint64_t dropout_seed = 0;
    uint64_t seed = 0;          // default weights and inputs
    Variant variant = Variant::Split;
    uint64_t max_memory_bytes = 2ull << 30;  // refuse traces estimated above this

    // Resolved sizes (after the 0 = "default" rules).
    int batch_size() const { return batch; }
    int L() const { return seq_len; }
    int S() const { return kv_len > 0 ? kv_len : seq_len; }
    int E() const { return hidden_dim; }
    int H() const { return num_heads; }
    int head_dim() const { return num_heads > 0 ? hidden_dim / num_heads : 0; }
    int key_dim() const { return kdim > 0 ? kdim : hidden_dim; }
    int value_dim() const { return vdim > 0 ? vdim : hidden_dim; }
    // True when key/value come from their own inputs rather than the query input.
    bool is_cross() const;
};

// Checks sizes, divisibility, mask lengths, dropout and the memory budget
// (estimate_peak_bytes against max_memory_bytes).
// The message names the offending values and what would be valid.
Status validate(const AttentionConfig& config);

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
