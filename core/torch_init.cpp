#include "core/torch_init.h"

#include <cassert>
#include <cmath>

namespace attn {

namespace {

Mat uniform_matrix(TorchGenerator& gen, int64_t rows, int64_t cols, double bound) {
    const std::vector<float> values = torch_uniform(gen, rows * cols, -bound, bound);
    return ConstMatMap(values.data(), rows, cols);
}

Vec uniform_vector(TorchGenerator& gen, int64_t size, double bound) {
    const std::vector<float> values = torch_uniform(gen, size, -bound, bound);
    return Eigen::Map<const Vec>(values.data(), size);
}

}  // namespace

double torch_kaiming_uniform_bound(int64_t fan_in, double a) {
    assert(fan_in > 0 && "kaiming_uniform_ needs a positive fan_in");
    // The same operations in the same order as torch.nn.init (Python floats are doubles;
    // Python's a ** 2 is C's pow).
    const double gain = std::sqrt(2.0 / (1.0 + std::pow(a, 2.0)));
    const double std_dev = gain / std::sqrt(static_cast<double>(fan_in));
    return std::sqrt(3.0) * std_dev;
}

double torch_xavier_uniform_bound(int64_t fan_in, int64_t fan_out, double gain) {
    return std::sqrt(3.0) * torch_xavier_normal_std(fan_in, fan_out, gain);
}

double torch_xavier_normal_std(int64_t fan_in, int64_t fan_out, double gain) {
    assert(fan_in + fan_out > 0 && "xavier init needs a positive fan_in + fan_out");
    return gain * std::sqrt(2.0 / static_cast<double>(fan_in + fan_out));
}

TorchLinear torch_linear(TorchGenerator& gen, int64_t in_features, int64_t out_features, bool bias) {
    assert(in_features > 0 && out_features >= 0 && "nn.Linear needs in_features >= 1");
    TorchLinear linear;
    linear.weight = uniform_matrix(gen, out_features, in_features, torch_kaiming_uniform_bound(in_features, std::sqrt(5.0)));
    if (bias) linear.bias = uniform_vector(gen, out_features, 1.0 / std::sqrt(static_cast<double>(in_features)));
    return linear;
}

TorchMultiheadAttention torch_multihead_attention(TorchGenerator& gen, const TorchMhaOptions& options) {
    const int64_t E = options.embed_dim;
    const int64_t kdim = options.kdim > 0 ? options.kdim : E;
    const int64_t vdim = options.vdim > 0 ? options.vdim : E;
    assert(E > 0 && "nn.MultiheadAttention needs embed_dim >= 1");

    TorchMultiheadAttention mha;
    // out_proj is an nn.Linear built inside __init__, before _reset_parameters runs.
    mha.out_proj = torch_linear(gen, E, E, options.bias);

    if (kdim == E && vdim == E) {
        mha.in_proj_weight = uniform_matrix(gen, 3 * E, E, torch_xavier_uniform_bound(E, 3 * E));
    } else {
        mha.q_proj_weight = uniform_matrix(gen, E, E, torch_xavier_uniform_bound(E, E));
        mha.k_proj_weight = uniform_matrix(gen, E, kdim, torch_xavier_uniform_bound(kdim, E));
        mha.v_proj_weight = uniform_matrix(gen, E, vdim, torch_xavier_uniform_bound(vdim, E));
    }
    if (options.bias) {
        mha.in_proj_bias = Vec::Zero(3 * E);
        mha.out_proj.bias.setZero();
    }
    if (options.add_bias_kv) {
        // (1, 1, E): fan_in = 1 * E and fan_out = 1 * E.
        const double std_dev = torch_xavier_normal_std(E, E);
        const std::vector<float> k = torch_normal(gen, E, 0.0, std_dev);
        const std::vector<float> v = torch_normal(gen, E, 0.0, std_dev);
        mha.bias_k = Eigen::Map<const Vec>(k.data(), E);
        mha.bias_v = Eigen::Map<const Vec>(v.data(), E);
    }
    return mha;
}

AttentionWeights to_attention_weights(const TorchMultiheadAttention& mha) {
    AttentionWeights w;
    if (mha.packed()) {
        const Eigen::Index E = mha.in_proj_weight.cols();
        w.w_q = mha.in_proj_weight.topRows(E);
        w.w_k = mha.in_proj_weight.middleRows(E, E);
        w.w_v = mha.in_proj_weight.bottomRows(E);
    } else {
        w.w_q = mha.q_proj_weight;
        w.w_k = mha.k_proj_weight;
        w.w_v = mha.v_proj_weight;
    }
    w.w_o = mha.out_proj.weight;
    if (mha.in_proj_bias.size() > 0) {
        const Eigen::Index E = mha.out_proj.weight.rows();
        w.b_q = mha.in_proj_bias.segment(0, E);
        w.b_k = mha.in_proj_bias.segment(E, E);
        w.b_v = mha.in_proj_bias.segment(2 * E, E);
        w.b_o = mha.out_proj.bias;
    }
    return w;
}

}  // namespace attn
