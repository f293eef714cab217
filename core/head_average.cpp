#include "core/head_average.h"

#include <cassert>

#include "core/dims.h"

namespace attn {

Tensor average_heads(const Tensor& weights) {
    assert(weights.rank() == 4 && "average_heads: weights must be (B, H, L, S)");
    const int64_t B = weights.dim(0), H = weights.dim(1), L = weights.dim(2), S = weights.dim(3);
    const Tensor source = weights.contiguous();
    Tensor out = Tensor::zeros({B, L, S}, {"B", "L", "S"});
    for (int64_t b = 0; b < B; ++b) {
        MatMap mean(out.mutable_data() + b * L * S, L, S);  // (L, S)
        for (int64_t h = 0; h < H; ++h) mean += ConstMatMap(source.data() + (b * H + h) * L * S, L, S);
        mean /= static_cast<float>(H);
    }
    return out;
}

}  // namespace attn
