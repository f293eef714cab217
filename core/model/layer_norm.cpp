#include "core/model/layer_norm.h"

#include <cmath>

namespace attn {

Mat layer_norm(const Eigen::Ref<const Mat>& x, const NormWeights& norm, float eps) {
    const Eigen::Index N = x.rows(), D = x.cols();
    Mat y(N, D);
    for (Eigen::Index i = 0; i < N; ++i) {
        // Mean and variance in double: the fixtures are float32 PyTorch, which
        // accumulates more carefully than a naive float sum.
        const Eigen::RowVectorXd row = x.row(i).cast<double>();
        const double mean = row.mean();
        const double variance = (row.array() - mean).square().mean();  // biased, as torch
        const double inv_std = 1.0 / std::sqrt(variance + static_cast<double>(eps));
        for (Eigen::Index j = 0; j < D; ++j)
            y(i, j) = static_cast<float>((row(j) - mean) * inv_std * norm.weight(j) + norm.bias(j));
    }
    return y;
}

}  // namespace attn
