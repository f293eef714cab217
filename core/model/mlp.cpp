#include "core/model/mlp.h"

#include <cmath>

namespace attn {

float gelu(float x) {
    const double xd = x;
    return static_cast<float>(xd * 0.5 * (1.0 + std::erf(xd / std::sqrt(2.0))));
}

MlpResult mlp_forward(const Eigen::Ref<const Mat>& x, const LayerWeights& layer) {
    MlpResult r;
    // lazyProduct: Eigen's GEMM hands products above ~50k multiply-adds to OpenMP threads,
    // and waking them on a loaded 2-core machine cost up to ~100 ms per model run; the
    // example models' products (at most 17 x 64 x 256) take well under a millisecond in order.
    r.hidden.noalias() = x.lazyProduct(layer.fc1.transpose());  // (N, F)
    if (layer.fc1_bias.size()) r.hidden.rowwise() += layer.fc1_bias;
    r.activated = r.hidden.unaryExpr([](float v) { return gelu(v); });
    r.out.noalias() = r.activated.lazyProduct(layer.fc2.transpose());  // (N, D)
    if (layer.fc2_bias.size()) r.out.rowwise() += layer.fc2_bias;
    return r;
}

}  // namespace attn
