// Panel pixels: reading a 2-D slice of a strided tensor, its value range, and pooling
// it down to display resolution. Pure functions over floats, used by the display model and projections.
#pragma once

#include <cstdint>
#include <functional>
#include <vector>

#include "core/tensor.h"

namespace attn::gui {

// Reads the (rows, cols) slice of `t` starting at `origin`, stepping row_dim and col_dim
// (-1: a dimension of size 1). Returns (rows, cols) row-major.
std::vector<float> read_slice(const Tensor& t, const std::vector<int64_t>& origin, int row_dim,
                              int col_dim, int rows, int cols);

// Widens [lo, hi] by `n` contiguous values (finite ones only; NaN ignored) and adds
// their -inf count (masked scores) to `neg_infs`. Vectorised: it reads every step
// before anything is drawn.
void scan_run(const float* v, int n, float& lo, float& hi, int64_t& neg_infs);

// True when every value is finite (no NaN, no +-inf). Vectorised.
bool all_finite(const std::vector<float>& values);

// Pools a (rows, cols) row-major matrix down to (out_rows, out_cols), keeping in each
// block the value of largest magnitude (its sign kept; the first one in reading order
// on ties); +-inf only if the whole block is.
std::vector<float> pool_max_abs(const std::vector<float>& values, int rows, int cols,
                                int out_rows, int out_cols);
// Called with each input row (cols adjacent values) while pool_max_abs reads it.
using RowRead = std::function<void(const float* row, int cols)>;

// The same, reading row r at values + r * row_stride (the columns adjacent): straight from
// a tensor, no copy of the slice first. With `row_read`, each row is also handed to it
// once, while it is in the cache (the step's range is read in the same pass).
std::vector<float> pool_max_abs(const float* values, int64_t row_stride, int rows, int cols,
                                int out_rows, int out_cols, const RowRead& row_read = nullptr);

}  // namespace attn::gui
