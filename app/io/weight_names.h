// Maps the tensor names of real checkpoints onto AttentionWeights, and back.
//
// PyTorch nn.MultiheadAttention state_dict:
//   in_proj_weight (3E, E) and in_proj_bias (3E)            when kdim = vdim = E
//   q_proj_weight (E, E), k_proj_weight (E, kdim), v_proj_weight (E, vdim) otherwise
//   out_proj.weight (E, E), out_proj.bias (E)
// Hugging Face (LlamaAttention and friends), optionally under a prefix such as
// "model.layers.0.self_attn.":
//   q_proj.weight, k_proj.weight, v_proj.weight, o_proj.weight (+ optional .bias)
// The articles' shapes: q_proj (E, d_in) with d_in != E, k_proj/v_proj with H_kv * d_h rows (GQA),
// no o_proj (no output projection), bias_k / bias_v (1, 1, E) (add_bias_kv).
#pragma once

#include <string>

#include "app/io/safetensors.h"
#include "core/result.h"
#include "core/weights.h"

namespace attn::io {

struct LoadedWeights {
    AttentionWeights weights;
    int hidden_dim = 0, kdim = 0, vdim = 0;  // read off the shapes
    int input_dim = 0;                       // d_in: the query projection's columns
    int kv_width = 0;                        // H_kv * d_h: the key projection's rows
    bool bias = false;                       // any bias present
    bool qkv_bias = false, out_bias = false;  // which biases are present (absent q/k/v ones are zero
                                              // when another of them is present)
    bool out_proj = true;                    // false when the file has no output projection
    bool bias_kv = false;                    // bias_k / bias_v present (add_bias_kv)
    std::string naming;                      // "pytorch" or "huggingface"
};

// Finds the attention weights among `tensors`; `what` names the file in messages.
Result<LoadedWeights> weights_from_tensors(const NamedTensors& tensors, const std::string& what);
// The same, looking only at the tensors whose names start with `prefix` (for example
// "layers.1.attn."), so a file holding several layers gives one layer's weights.
// The prefix is stripped before the lookup above; an empty prefix means all tensors.
Result<LoadedWeights> weights_from_tensors_under(const NamedTensors& tensors, const std::string& prefix,
                                                 const std::string& what);
// PyTorch nn.MultiheadAttention names (in_proj_weight when kdim = vdim = E); Hugging Face
// names when the shapes are not nn.MultiheadAttention's (d_in != E, GQA, no output projection,
// q/k/v biases without an output bias or the reverse).
NamedTensors weights_to_tensors(const AttentionWeights& weights);

}  // namespace attn::io
