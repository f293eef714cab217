#include "core/rope.h"

#include <cassert>
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
    for (int64_t p = 0; p < seq_len; ++p) {
        const auto position = static_cast<float>(position_offset + p);
        for (int64_t c = 0; c < head_dim; ++c) {
            const float angle = position * inv_freq[static_cast<size_t>(rope_frequency(c, head_dim, style))];
            t.cos(p, c) = std::cos(angle);
            t.sin(p, c) = std::sin(angle);
        }
    }
    return t;
}

Tensor apply_rope(const Tensor& x, const RopeTables& tables, RopeStyle style, DType dtype) {
    assert(x.rank() == 4 && "apply_rope: x must be (B, N_heads, N, d_h)");
    const int64_t N = x.dim(2), d_h = x.dim(3);
    assert(tables.cos.rows() >= N && tables.cos.cols() == d_h && "apply_rope: tables too short or of another width");
    const int64_t blocks = x.dim(0) * x.dim(1);
    const Tensor source = x.contiguous();
    Tensor out = Tensor::uninitialized(x.shape(), x.dim_names());
    // The tables in the compute dtype, as torch casts cos/sin to the dtype of q.
    Mat cos = tables.cos.topRows(N), sin = tables.sin.topRows(N);
    round_to_dtype_in_place(dtype, cos.data(), cos.size());
    round_to_dtype_in_place(dtype, sin.data(), sin.size());
    Eigen::ArrayXf rotated(d_h), along(d_h), across(d_h);  // one head vector at a time
    for (int64_t blk = 0; blk < blocks; ++blk)
        for (int64_t n = 0; n < N; ++n) {
            const Eigen::Map<const Eigen::ArrayXf> in(source.data() + (blk * N + n) * d_h, d_h);
            Eigen::Map<Eigen::ArrayXf> dst(out.mutable_data() + (blk * N + n) * d_h, d_h);
            // rotate(x): each pair (x1, x2) becomes (-x2, x1).
            if (style == RopeStyle::Half) {
                const int64_t half = d_h / 2;
                rotated.head(half) = -in.tail(half);
                rotated.tail(half) = in.head(half);
            } else {
                for (int64_t c = 0; c < d_h; c += 2) {
                    rotated[c] = -in[c + 1];
                    rotated[c + 1] = in[c];
                }
            }
            along = in * cos.row(n).transpose().array();
            across = rotated * sin.row(n).transpose().array();
            round_to_dtype_in_place(dtype, along.data(), d_h);
            round_to_dtype_in_place(dtype, across.data(), d_h);
            dst = along + across;
            round_to_dtype_in_place(dtype, dst.data(), d_h);
        }
    return out;
}

}  // namespace attn
