#include "core/model/layer_norm.h"

#include <cmath>

namespace attn {

LayerNormStats layer_norm_stats(const Eigen::Ref<const Eigen::RowVectorXf>& row, float eps) {
    const Eigen::RowVectorXd x = row.cast<double>();
    LayerNormStats s;
    s.mean = x.mean();
    s.variance = (x.array() - s.mean).square().mean();  // biased, as torch
    s.inv_std = 1.0 / std::sqrt(s.variance + static_cast<double>(eps));
    return s;
}

LayerNormStats rms_norm_stats(const Eigen::Ref<const Eigen::RowVectorXf>& row, float eps) {
    const Eigen::RowVectorXd x = row.cast<double>();
    LayerNormStats s;
    s.variance = x.squaredNorm() / static_cast<double>(x.size());  // mean(x^2), as rms_norm
    s.inv_std = 1.0 / std::sqrt(s.variance + static_cast<double>(eps));
    return s;
}

LayerNormStats norm_stats(const Eigen::Ref<const Eigen::RowVectorXf>& row, float eps, NormKind kind) {
    return kind == NormKind::RmsNorm ? rms_norm_stats(row, eps) : layer_norm_stats(row, eps);
}

float layer_norm_element(float x, const LayerNormStats& stats, float weight, float bias) {
    return static_cast<float>((static_cast<double>(x) - stats.mean) * stats.inv_std * weight + bias);
}

Mat layer_norm(const Eigen::Ref<const Mat>& x, const NormWeights& norm, float eps) {
    const Eigen::Index N = x.rows(), D = x.cols();
    Mat y(N, D);
    for (Eigen::Index i = 0; i < N; ++i) {
        const LayerNormStats stats = layer_norm_stats(x.row(i), eps);
        for (Eigen::Index j = 0; j < D; ++j)
            y(i, j) = layer_norm_element(x(i, j), stats, norm.weight(j), norm.bias.size() ? norm.bias(j) : 0.0f);
    }
    return y;
}

Mat rms_norm(const Eigen::Ref<const Mat>& x, const NormWeights& norm, float eps) {
    Mat y(x.rows(), x.cols());
    for (Eigen::Index i = 0; i < x.rows(); ++i) {
        const Eigen::RowVectorXd row = x.row(i).cast<double>();
        const double inv_rms = 1.0 / std::sqrt(row.squaredNorm() / static_cast<double>(x.cols()) + static_cast<double>(eps));
        y.row(i) = (row * inv_rms).cwiseProduct(norm.weight.cast<double>()).cast<float>();
    }
    return y;
}

Mat model_norm(const Eigen::Ref<const Mat>& x, const NormWeights& norm, const ModelSpec& spec) {
    return spec.norm == NormKind::RmsNorm ? rms_norm(x, norm, spec.norm_eps) : layer_norm(x, norm, spec.norm_eps);
}

}  // namespace attn
