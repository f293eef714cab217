// Maps the tensor names of real checkpoints onto AttentionWeights, and back.
//
// PyTorch nn.MultiheadAttention state_dict:
//   in_proj_weight (3E, E) and in_proj_bias (3E)            when kdim = vdim = E
//   q_proj_weight (E, E), k_proj_weight (E, kdim), v_proj_weight (E, vdim) otherwise
//   out_proj.weight (E, E), out_proj.bias (E)
// Hugging Face (LlamaAttention and friends), optionally under a prefix such as
// "model.layers.0.self_attn.":
//   q_proj.weight, k_proj.weight, v_proj.weight, o_proj.weight (+ optional .bias)
#pragma once

#include <string>

#include "app/io/safetensors.h"
#include "core/result.h"
#include "core/weights.h"

namespace attn::io {

struct LoadedWeights {
    AttentionWeights weights;
    int hidden_dim = 0, kdim = 0, vdim = 0;  // read off the shapes
    bool bias = false;                       // any bias present (absent ones are zero)
    std::string naming;                      // "pytorch" or "huggingface"
};

// Finds the attention weights among `tensors`; `what` names the file in messages.
Result<LoadedWeights> weights_from_tensors(const NamedTensors& tensors, const std::string& what);
// The same, looking only at the tensors whose names start with `prefix` (for example
// "layers.1.attn."), so a file holding several layers gives one layer's weights.
// The prefix is stripped before the lookup above; an empty prefix means all tensors.
Result<LoadedWeights> weights_from_tensors_under(const NamedTensors& tensors, const std::string& prefix,
                                                 const std::string& what);
// PyTorch nn.MultiheadAttention names (in_proj_weight when kdim = vdim = E).
NamedTensors weights_to_tensors(const AttentionWeights& weights);

}  // namespace attn::io
