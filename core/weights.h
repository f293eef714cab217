// The parameters of one multi-head attention layer and its inputs.
//
// Weights follow nn.Linear's convention: W is (out_features, in_features) and a
// projection is x W^T + b. All four projections are stored separately; the fused
// and stacked variants slice or stack these same numbers, so every variant computes
// the same function.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/config.h"
#include "core/dims.h"
#include "core/tensor.h"

namespace attn {

// How a trained model's layer normalises the residual stream (its card's architecture.norm;
// core/model/model.h reads it, a model layer's trace carries it for the texts).
enum class NormKind {
    LayerNorm,  // (x - mean) / sqrt(var + eps) * weight + bias (the GPT-style models)
    RmsNorm,    // x / sqrt(mean(x^2) + eps) * weight, no bias (Llama's RMSNorm)
};


struct AttentionWeights {
    Mat w_q;  // (E, d_in)
    Mat w_k;  // (H_kv * d_h, kdim)
    Mat w_v;  // (H_kv * d_h, vdim)
    Mat w_o;  // (E, E); empty with no_out_proj
    Vec b_q, b_k, b_v;  // (E), (H_kv * d_h), (H_kv * d_h); empty without q/k/v bias
    Vec b_o;            // (E); empty without output bias
    Vec bias_k, bias_v;  // (H_kv * d_h): nn.MultiheadAttention's add_bias_kv rows; empty otherwise
    // True when the q/k/v projections have biases.
    bool has_bias() const { return b_q.size() > 0; }
};

// Inputs of one forward. For self-attention key/value are left empty.
struct AttentionInputs {
    Tensor query;  // (B, L, d_in)
    Tensor key;    // (B, S, kdim)  cross-attention only
    Tensor value;  // (B, S, vdim)  cross-attention only
};

// nn.Linear's default init, made deterministic: weights ~ U(-1/sqrt(fan_in), 1/sqrt(fan_in))
// (kaiming_uniform with a = sqrt(5)), biases the same bound. Same seed, same numbers,
// on every machine.
AttentionWeights default_weights(const AttentionConfig& config);
// Every field of the configuration that default_weights() reads: equal keys, equal
// weights. The window keeps the last default weights under this key, so dragging the
// seq_len slider does not draw the same E x E matrices again (2-3 ms at E = 512).
struct DefaultWeightsKey {
    uint64_t seed = 0;
    int out_features = 0, kv_width = 0, d_in = 0, key_dim = 0, value_dim = 0;
    bool out_proj = false, qkv_bias = false, out_bias = false, bias_kv = false;
    bool operator==(const DefaultWeightsKey& o) const {
        return seed == o.seed && out_features == o.out_features && kv_width == o.kv_width && d_in == o.d_in &&
               key_dim == o.key_dim && value_dim == o.value_dim && out_proj == o.out_proj && qkv_bias == o.qkv_bias &&
               out_bias == o.out_bias && bias_kv == o.bias_kv;
    }
};
DefaultWeightsKey default_weights_key(const AttentionConfig& config);
// Inputs ~ U(-1, 1), deterministic from config.seed.
AttentionInputs default_inputs(const AttentionConfig& config);
// One embedding row per token, derived from the token's text and the seed, so the
// same word always gets the same vector: (B=1, L=tokens.size(), E).
Tensor token_embeddings(const std::vector<std::string>& tokens, int hidden_dim, uint64_t seed);

// Checks that weight and input shapes agree with each other and with config.
Status check_shapes(const AttentionConfig& config, const AttentionWeights& weights,
                    const AttentionInputs& inputs);

}  // namespace attn
