// PyTorch's module construction, replayed: the weights `torch.manual_seed(N)` and then
// `nn.Linear(...)` / `nn.MultiheadAttention(...)` / `nn.Parameter(torch.rand(...))` give.
//
// A module draws its parameters when it is constructed, one tensor after another, from
// the one global generator (core/torch_random.h); a later module starts where the
// earlier one stopped. So a recipe replays torch by calling these functions on one
// TorchGenerator in the order its PyTorch code constructs the modules.
//
// Draw order, as torch 1.13's Python code does it (the same in torch 2.x):
//   nn.Linear(in, out, bias)   weight (out, in): uniform_(-k, k), k = kaiming bound with
//                              a = sqrt(5), which equals 1 / sqrt(in) up to rounding;
//                              then, with bias, bias (out): uniform_(-1/sqrt(in), 1/sqrt(in)).
//                              bias=False draws nothing for the bias.
//   nn.MultiheadAttention      1. out_proj = nn.Linear(E, E, bias): its weight, then its
//                                 bias (drawn even though step 3 zeroes it);
//                              2. xavier_uniform_ on in_proj_weight (3E, E), or, when kdim
//                                 or vdim differs from E, on q_proj_weight (E, E), then
//                                 k_proj_weight (E, kdim), then v_proj_weight (E, vdim);
//                              3. in_proj_bias and out_proj.bias set to 0 (no draws);
//                              4. add_bias_kv: xavier_normal_ on bias_k (1, 1, E), then
//                                 bias_v (1, 1, E) -- a normal_ of E elements, so E >= 16
//                                 takes the vectorised normal path and E < 16 the scalar one.
//   nn.Parameter(torch.rand(r, c))   r * c uniforms in [0, 1), C order (torch_rand).
#pragma once

#include <cstdint>

#include "core/dims.h"
#include "core/torch_random.h"
#include "core/weights.h"

namespace attn {

// init.kaiming_uniform_(w, a) bound for fan_in = w.size(1): sqrt(3) * sqrt(2 / (1 + a^2)) /
// sqrt(fan_in), in Python's double arithmetic. nn.Linear uses a = sqrt(5).
double torch_kaiming_uniform_bound(int64_t fan_in, double a);
// init.xavier_uniform_(w, gain) bound: gain * sqrt(2 / (fan_in + fan_out)) * sqrt(3).
double torch_xavier_uniform_bound(int64_t fan_in, int64_t fan_out, double gain = 1.0);
// init.xavier_normal_(w, gain) standard deviation: gain * sqrt(2 / (fan_in + fan_out)).
double torch_xavier_normal_std(int64_t fan_in, int64_t fan_out, double gain = 1.0);

// The parameters of one nn.Linear.
struct TorchLinear {
    Mat weight;  // (out_features, in_features)
    Vec bias;    // (out_features); empty when constructed with bias=False
};

// nn.Linear(in_features, out_features, bias) right after construction; in_features >= 1.
TorchLinear torch_linear(TorchGenerator& gen, int64_t in_features, int64_t out_features, bool bias = true);

// Constructor arguments of nn.MultiheadAttention that change what it draws.
struct TorchMhaOptions {
    int64_t embed_dim = 0;     // E
    int64_t kdim = 0;          // width of the key input; 0 means E
    int64_t vdim = 0;          // width of the value input; 0 means E
    bool bias = true;          // in_proj_bias and out_proj.bias (both start at zero)
    bool add_bias_kv = false;  // bias_k and bias_v
};

// The parameters of one nn.MultiheadAttention right after construction.
struct TorchMultiheadAttention {
    Mat in_proj_weight;  // (3E, E), rows q then k then v; empty when kdim or vdim differs from E
    Mat q_proj_weight;   // (E, E)     only when kdim or vdim differs from E
    Mat k_proj_weight;   // (E, kdim)  only when kdim or vdim differs from E
    Mat v_proj_weight;   // (E, vdim)  only when kdim or vdim differs from E
    Vec in_proj_bias;    // (3E) zeros; empty without bias
    TorchLinear out_proj;  // weight (E, E) kaiming-uniform; bias (E) zeros, empty without bias
    Vec bias_k;          // (E), torch's (1, 1, E); empty without add_bias_kv
    Vec bias_v;          // (E), torch's (1, 1, E); empty without add_bias_kv
    bool packed() const { return in_proj_weight.size() > 0; }
};

// nn.MultiheadAttention(E, H, bias=..., add_bias_kv=..., kdim=..., vdim=...) right
// after construction (H changes no draw). embed_dim >= 1.
TorchMultiheadAttention torch_multihead_attention(TorchGenerator& gen, const TorchMhaOptions& options);

// The same numbers in AttnViz's layout: W_q, W_k, W_v sliced from in_proj_weight (or the
// separate q/k/v weights), W_o = out_proj.weight, and the (zero) biases when present.
// bias_k / bias_v have no place there and are left out.
AttentionWeights to_attention_weights(const TorchMultiheadAttention& mha);

}  // namespace attn
