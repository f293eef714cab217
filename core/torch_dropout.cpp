#include "core/torch_dropout.h"

#include <cassert>

namespace attn {

float torch_dropout_scale(double p) {
    assert(p >= 0.0 && p < 1.0 && "torch_dropout_scale: p must be in [0, 1)");
    return 1.0f / static_cast<float>(1.0 - p);
}

std::vector<uint8_t> torch_dropout_keep_mask(TorchGenerator& gen, int64_t numel, double p) {
    assert(p >= 0.0 && p <= 1.0 && "dropout probability must be in [0, 1]");
    assert(numel >= 0 && "negative element count");
    const size_t n = static_cast<size_t>(numel);
    if (p == 0.0) return std::vector<uint8_t>(n, 1);
    if (p == 1.0) return std::vector<uint8_t>(n, 0);
    const double keep_probability = 1.0 - p;
    std::vector<uint8_t> keep(n);
    for (uint8_t& k : keep) k = torch_uniform_double(gen) < keep_probability ? 1 : 0;
    return keep;
}

std::vector<float> torch_dropout(TorchGenerator& gen, const std::vector<float>& x, double p) {
    if (p == 0.0) return x;
    std::vector<float> out(x.size());
    // torch multiplies by its noise tensor, so a dropped -2 is -0 and a dropped NaN stays NaN.
    if (p == 1.0) {
        for (size_t i = 0; i < x.size(); ++i) out[i] = x[i] * 0.0f;
        return out;
    }
    const std::vector<uint8_t> keep = torch_dropout_keep_mask(gen, static_cast<int64_t>(x.size()), p);
    const float scale = torch_dropout_scale(p);
    for (size_t i = 0; i < x.size(); ++i) out[i] = x[i] * (keep[i] ? scale : 0.0f);
    return out;
}

Tensor torch_dropout(TorchGenerator& gen, const Tensor& x, double p) {
    return Tensor::from_values(x.shape(), x.dim_names(), torch_dropout(gen, x.to_vector(), p));
}

}  // namespace attn
