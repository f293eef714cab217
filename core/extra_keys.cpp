#include "core/extra_keys.h"

#include <cassert>
#include <cstring>

namespace attn {

namespace {
// x viewed as (outer, rows, width) -> (outer, rows + 1, width) with `row` (width values)
// appended to every block; a null `row` appends zeros.
Tensor append_row(const Tensor& x, const float* row) {
    const int r = x.rank();
    const int64_t rows = x.dim(r - 2), width = x.dim(r - 1);
    const int64_t outer = rows * width == 0 ? 0 : x.numel() / (rows * width);
    std::vector<int64_t> shape = x.shape();
    shape[static_cast<size_t>(r - 2)] += 1;
    const Tensor source = x.contiguous();
    Tensor out = Tensor::zeros(shape, x.dim_names());
    const size_t block_bytes = static_cast<size_t>(rows * width) * sizeof(float);
    for (int64_t o = 0; o < outer; ++o) {
        float* dst = out.mutable_data() + o * (rows + 1) * width;
        std::memcpy(dst, source.data() + o * rows * width, block_bytes);
        if (row != nullptr) std::memcpy(dst + rows * width, row, static_cast<size_t>(width) * sizeof(float));
    }
    return out;
}
}  // namespace

Tensor append_bias_row(const Tensor& x, const std::vector<float>& row) {
    assert(x.rank() == 3 && static_cast<int64_t>(row.size()) == x.dim(2) &&
           "append_bias_row: x must be (B, S, W) and row W values");
    return append_row(x, row.data());
}

Tensor append_zero_row(const Tensor& heads) {
    assert(heads.rank() == 4 && "append_zero_row: heads must be (B, H, S, d_h)");
    return append_row(heads, nullptr);
}

}  // namespace attn
