// nn.Dropout(p) in train mode on the CPU, replayed: the same kept/dropped pattern and
// the same scaled values torch gives after the same seed and the same earlier draws.
//
// What torch 1.13 (Debian's build, no MKL) does for a float32 tensor x:
//   noise = empty_like(x).bernoulli_(1 - p)   one element after another in C order;
//                                             each draws random64() (two words),
//                                             keeps 53 bits, u in [0, 1) as a double,
//                                             and keeps the element when u < 1 - p
//                                             (1 - p in double).
//   noise /= (1 - p)                           (1 - p) rounded to float first, so the
//                                             kept value is 1.0f / float(1 - p).
//   return x * noise                          in float.
// p == 0 (and eval mode) returns x and draws nothing; p == 1 returns zeros and draws
// nothing. The functional `F.dropout(x, p, training=True)` is the same op.
//
// Caution: a torch built with MKL (the PyPI wheels for x86-64) samples bernoulli_
// through MKL's own stream seeded from one generator word, so its masks differ from
// these; the weights and torch.rand / torch.randn inputs do not.
#pragma once

#include <cstdint>
#include <vector>

#include "core/tensor.h"
#include "core/torch_random.h"

namespace attn {

// The factor kept elements are multiplied by: 1.0f / float(1 - p), for 0 <= p < 1.
float torch_dropout_scale(double p);

// The keep mask of nn.Dropout(p) for a tensor of `numel` elements in C order
// (1 = kept, 0 = dropped); draws 2 words per element when 0 < p < 1, none otherwise.
std::vector<uint8_t> torch_dropout_keep_mask(TorchGenerator& gen, int64_t numel, double p);

// nn.Dropout(p)(x) in train mode on values in C order: x * scale where kept, 0 elsewhere.
std::vector<float> torch_dropout(TorchGenerator& gen, const std::vector<float>& x, double p);

// The same for a tensor of any shape (e.g. attention weights (B, H, L, S)): the draws
// follow its logical C order, as torch's contiguous noise tensor does. Returns a new
// contiguous tensor with the input's shape and dimension names.
Tensor torch_dropout(TorchGenerator& gen, const Tensor& x, double p);

}  // namespace attn
