#include "core/rope.h"

#include "core/ops.h"

#include <cassert>
#include <vector>
#include <cmath>

namespace attn {

const char* to_string(RopeStyle style) { return style == RopeStyle::Half ? "half" : "interleaved"; }

Result<RopeStyle> parse_rope_style(const std::string& text) {
    if (text == "half") return RopeStyle::Half;
    if (text == "interleaved") return RopeStyle::Interleaved;
    return Result<RopeStyle>::failure(Message("error.rope.unknown_style", {{"text", text}}));
}

Status check_rope(int64_t head_dim, double base, int64_t position_offset) {
    if (head_dim < 2 || head_dim % 2 != 0)
        return Status::failure(Message("error.rope.odd_head_dim", {{"head_dim", head_dim}}));
    if (!std::isfinite(base) || base <= 0)
        return Status::failure(Message("error.rope.base", {{"base", std::to_string(base)}}));
    if (position_offset < 0)
        return Status::failure(Message("error.rope.position_offset", {{"offset", position_offset}}));
    return ok_status();
}

int64_t rope_partner(int64_t column, int64_t head_dim, RopeStyle style, float* sign) {
    if (style == RopeStyle::Half) {
        const int64_t half = head_dim / 2;
        *sign = column < half ? -1.0f : 1.0f;
        return column < half ? column + half : column - half;
    }
    *sign = column % 2 == 0 ? -1.0f : 1.0f;
    return column % 2 == 0 ? column + 1 : column - 1;
}

int64_t rope_frequency(int64_t column, int64_t head_dim, RopeStyle style) {
    return style == RopeStyle::Half ? column % (head_dim / 2) : column / 2;
}

float rope_inv_freq(int64_t frequency, int64_t head_dim, double base) {
    // torch: 1.0 / (base ** (arange(0, d_h, 2).float() / d_h)), all in float32.
    const float exponent = static_cast<float>(2 * frequency) / static_cast<float>(head_dim);
    return 1.0f / std::pow(static_cast<float>(base), exponent);
}

RopeTables rope_tables(int64_t seq_len, int64_t head_dim, double base, int64_t position_offset, RopeStyle style) {
    assert(check_rope(head_dim, base, position_offset).ok() && "rope_tables: call check_rope first");
    const int64_t pairs = head_dim / 2;
    std::vector<float> inv_freq(static_cast<size_t>(pairs));
    for (int64_t i = 0; i < pairs; ++i) inv_freq[static_cast<size_t>(i)] = rope_inv_freq(i, head_dim, base);
    RopeTables t{Mat(seq_len, head_dim), Mat(seq_len, head_dim)};
    // Both columns of a pair turn by the same angle (torch builds cat(freqs, freqs) or
    // repeats each frequency): one cos and one sin per pair, written to both columns.
    std::vector<float> pair_cos(static_cast<size_t>(pairs)), pair_sin(static_cast<size_t>(pairs));
    for (int64_t p = 0; p < seq_len; ++p) {
        const auto position = static_cast<float>(position_offset + p);
        for (int64_t i = 0; i < pairs; ++i) {
            const float angle = position * inv_freq[static_cast<size_t>(i)];
            pair_cos[static_cast<size_t>(i)] = std::cos(angle);
            pair_sin[static_cast<size_t>(i)] = std::sin(angle);
        }
        for (int64_t c = 0; c < head_dim; ++c) {
            const auto i = static_cast<size_t>(rope_frequency(c, head_dim, style));
            t.cos(p, c) = pair_cos[i];
            t.sin(p, c) = pair_sin[i];
        }
    }
    return t;
}

Tensor apply_rope(const Tensor& x, const RopeTables& tables, RopeStyle style, DType dtype) {
    assert(x.rank() == 4 && "apply_rope: x must be (B, N_heads, N, d_h)");
    const int64_t heads = x.dim(1), N = x.dim(2), d_h = x.dim(3);
    assert(tables.cos.rows() >= N && tables.cos.cols() == d_h && "apply_rope: tables too short or of another width");
    const int64_t blocks = x.dim(0) * heads;
    // q_heads / k_heads are transposed views whose rows (one head vector) are still
    // contiguous: read them in place instead of copying the whole tensor first.
    const Tensor source = x.strides()[3] == 1 ? x : x.contiguous();
    Tensor out = Tensor::uninitialized(x.shape(), x.dim_names());
    // The tables in the compute dtype, as torch casts cos/sin to the dtype of q.
    Mat cos = tables.cos.topRows(N), sin = tables.sin.topRows(N);
    round_to_dtype_in_place(dtype, cos.data(), cos.size());
    round_to_dtype_in_place(dtype, sin.data(), sin.size());
    // One (batch, head) block per task: N head vectors of d_h, rotated pair by pair.
    // out = x * cos + rotate(x) * sin, where rotate turns each pair (x1, x2) into (-x2, x1).
    const auto& st = source.strides();
    const bool round = dtype != DType::Float32;
    for_each_head(blocks, [&](int64_t blk) {
        std::vector<float> along(static_cast<size_t>(d_h)), across(static_cast<size_t>(d_h));
        const int64_t b = blk / heads, h = blk % heads;
        const float* block_in = source.data() + b * st[0] + h * st[1];
        for (int64_t n = 0; n < N; ++n) {
            const float* in = block_in + n * st[2];
            const float* cos_row = cos.data() + n * d_h;
            const float* sin_row = sin.data() + n * d_h;
            float* dst = out.mutable_data() + (blk * N + n) * d_h;
            for (int64_t c = 0; c < d_h; ++c) {
                float sign = 1.0f;
                const int64_t partner = rope_partner(c, d_h, style, &sign);
                along[static_cast<size_t>(c)] = in[c] * cos_row[c];
                across[static_cast<size_t>(c)] = sign * in[partner] * sin_row[c];
            }
            if (round) {
                round_to_dtype_in_place(dtype, along.data(), d_h);
                round_to_dtype_in_place(dtype, across.data(), d_h);
            }
            for (int64_t c = 0; c < d_h; ++c) dst[c] = along[static_cast<size_t>(c)] + across[static_cast<size_t>(c)];
            if (round) round_to_dtype_in_place(dtype, dst, d_h);
        }
    }, N * d_h * 3);
    return out;
}

}  // namespace attn
