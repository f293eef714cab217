// LayerNorm over the last axis, as torch.nn.LayerNorm: biased variance (divide by D).
#pragma once

#include "core/dims.h"
#include "core/model/model.h"

namespace attn {

// One row's statistics, in double (the fixtures are float32 PyTorch, which accumulates
// more carefully than a naive float sum).
struct LayerNormStats {
    double mean = 0;
    double variance = 0;  // biased: the mean of squared deviations
    double inv_std = 0;   // 1 / sqrt(variance + eps)
};
// row: (D) -> its mean, variance and 1/sqrt(variance + eps).
LayerNormStats layer_norm_stats(const Eigen::Ref<const Eigen::RowVectorXf>& row, float eps);
// RMSNorm's statistics in the same form: nothing subtracted (mean 0), `variance` the mean
// of squares, inv_std = 1 / sqrt(mean(x^2) + eps).   row: (D)
LayerNormStats rms_norm_stats(const Eigen::Ref<const Eigen::RowVectorXf>& row, float eps);
// The statistics of the norm `kind` names.
LayerNormStats norm_stats(const Eigen::Ref<const Eigen::RowVectorXf>& row, float eps, NormKind kind);
// Element j of the normed row: (x_j - mean) * inv_std * weight_j + bias_j, rounded to float once.
float layer_norm_element(float x, const LayerNormStats& stats, float weight, float bias);

// x: (N, D) -> (N, D); each row normalised to mean 0, variance 1, then scaled and shifted
// (no shift when norm.bias is empty).
Mat layer_norm(const Eigen::Ref<const Mat>& x, const NormWeights& norm, float eps);

// RMSNorm as Llama's: x / sqrt(mean(x^2) + eps) * weight, in double, rounded once.  (N, D) -> (N, D)
Mat rms_norm(const Eigen::Ref<const Mat>& x, const NormWeights& norm, float eps);

// The norm the model's card names (spec.norm), with its epsilon.  (N, D) -> (N, D)
Mat model_norm(const Eigen::Ref<const Mat>& x, const NormWeights& norm, const ModelSpec& spec);

}  // namespace attn
