// --init torch: the weights, drawn inputs and dropout mask of a recipe's PyTorch code,
// replayed from `torch.manual_seed(config.seed)`.
//
// Order of the draws, as the recipe's Python runs them (one generator throughout):
//   1. the inputs, when the article draws X = torch.rand(...) before building the module
//      (Recipe::inputs_before_module);
//   2. the module's parameters in construction order (Recipe::module, core/torch_init.h);
//   3. otherwise the inputs now: query (B, L, d_in), then for cross-attention key
//      (B, S, kdim) and value (B, S, vdim), by torch.rand or torch.randn;
//   4. the forward's dropout (train mode): one bernoulli mask over (B, H, L, S), or, for
//      the stacked variant, one (B, L, S) mask per head, head after head.
// Inputs a caller already has (a file, typed values, the example) are not drawn, so they
// do not shift the draws after them. Without a recipe the module is nn.Linear for q, k,
// v and the output (nn.Linear(d_in, 3E) for the fused variant) and inputs come after it.
#pragma once

#include <cstdint>
#include <vector>

#include "core/config.h"
#include "core/result.h"
#include "core/tensor.h"
#include "core/weights.h"

namespace attn {

struct TorchReplay {
    AttentionWeights weights;
    Tensor query;  // (B, L, d_in); empty when not drawn
    Tensor key;    // (B, S, kdim); empty when not drawn
    Tensor value;  // (B, S, vdim); empty when not drawn
    std::vector<uint8_t> dropout_keep;  // (B, H, L, S_total), 1 = kept; empty without dropout
};

// Replays the recipe named by config.recipe (or the plain modules above) for `config`'s
// final sizes. Fails, naming the option, when the module cannot express the
// configuration (e.g. q/k/v biases on torch.rand parameters, GQA in nn.MultiheadAttention).
Result<TorchReplay> torch_replay(const AttentionConfig& config, bool draw_query, bool draw_key_value);

}  // namespace attn
