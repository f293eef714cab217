#include "app/gui/display/panel_pixels.h"

#include <algorithm>
#include <cmath>
#include <limits>

namespace attn::gui {

std::vector<float> read_slice(const Tensor& t, const std::vector<int64_t>& origin, int row_dim,
                              int col_dim, int rows, int cols) {
    const float* base = t.data();
    const auto& strides = t.strides();
    const int64_t start = t.offset_of(origin);
    const int64_t rs = row_dim >= 0 ? strides[static_cast<size_t>(row_dim)] : 0;
    const int64_t cs = col_dim >= 0 ? strides[static_cast<size_t>(col_dim)] : 0;
    std::vector<float> out(static_cast<size_t>(rows) * cols);
    for (int r = 0; r < rows; ++r) {
        const float* row = base + start + r * rs;
        float* dst = &out[static_cast<size_t>(r) * cols];
        if (cs == 1) {
            std::copy(row, row + cols, dst);
        } else {
            for (int c = 0; c < cols; ++c) dst[c] = row[c * cs];
        }
    }
    return out;
}

namespace {

// The general way: NaN and -inf are mapped to values that cannot win, so the reductions
// are exact in any order and the loop vectorises (with mask operations: about 25
// instructions per 8 values).
void scan_run_any(const float* v, int n, float& lo, float& hi, int64_t& neg_infs) {
    const float inf = std::numeric_limits<float>::infinity();
    float l = lo, h = hi;
    int64_t count = 0;
#pragma omp simd reduction(min : l) reduction(max : h) reduction(+ : count)
    for (int i = 0; i < n; ++i) {
        const float x = v[i];
        const bool nan = x != x;
        count += x == -inf;
        l = std::min(l, (nan || x == -inf) ? inf : x);
        h = std::max(h, nan ? -inf : x);
    }
    lo = l;
    hi = h;
    neg_infs += count;
}

}  // namespace

// Almost every run is finite: plain min and max, and x * 0 summed, which stays 0 unless
// some x is +-inf or NaN (then the general way reads the run again). Three vector
// instructions per 8 values: the range of a 256 x 256 x 8 step is read in a quarter of
// the time.
void scan_run(const float* v, int n, float& lo, float& hi, int64_t& neg_infs) {
    float l = std::numeric_limits<float>::infinity(), h = -l, zero = 0.0f;
#pragma omp simd reduction(min : l) reduction(max : h) reduction(+ : zero)
    for (int i = 0; i < n; ++i) {
        const float x = v[i];
        l = std::min(l, x);
        h = std::max(h, x);
        zero += x * 0.0f;
    }
    if (zero != 0.0f) return scan_run_any(v, n, lo, hi, neg_infs);
    lo = std::min(lo, l);
    hi = std::max(hi, h);
}

namespace {

// True when every one of n adjacent values is finite (no NaN, no +-inf): x * 0 summed
// stays 0 unless some x is not. Vectorised.
bool run_is_finite(const float* v, int n) {
    float zero = 0.0f;
#pragma omp simd reduction(+ : zero)
    for (int i = 0; i < n; ++i) zero += v[i] * 0.0f;
    return zero == 0.0f;
}

bool all_finite(const float* values, int64_t row_stride, int rows, int cols) {
    for (int r = 0; r < rows; ++r)
        if (!run_is_finite(values + r * row_stride, cols)) return false;
    return true;
}

// One row of pool_max_abs's output for blocks of exactly fr rows by fc columns and finite
// values, the loops over a row of blocks so they vectorise. Taking the first of the largest
// magnitude in each row's part of a block, then across the rows, keeps the first in
// reading order on ties, as one pass over the block in reading order does.
// `part`: (out_cols) scratch.
void pool_block_row(const float* values, int64_t row_stride, int fr, int fc, int out_cols, float* out_row, float* part) {
    for (int rr = 0; rr < fr; ++rr) {
        const float* in = values + static_cast<int64_t>(rr) * row_stride;
        for (int oc = 0; oc < out_cols; ++oc) part[oc] = in[oc * fc];
        for (int k = 1; k < fc; ++k) {
            for (int oc = 0; oc < out_cols; ++oc) {
                const float v = in[oc * fc + k], best = part[oc];
                part[oc] = std::fabs(v) > std::fabs(best) ? v : best;
            }
        }
        for (int oc = 0; oc < out_cols; ++oc) {
            const float v = part[oc];
            out_row[oc] = rr == 0 || std::fabs(v) > std::fabs(out_row[oc]) ? v : out_row[oc];
        }
    }
}

// Whole blocks (rows and cols multiples of the output's): each row of blocks is handed to
// `row_read` and pooled while it is in the cache. False, with every row read, when a block
// holds a value that is not finite (the caller pools again the general way).
bool pool_whole_blocks(const float* values, int64_t row_stride, int rows, int cols, int out_rows, int out_cols,
                       const RowRead& row_read, float* out) {
    const int fr = rows / out_rows, fc = cols / out_cols;
    std::vector<float> part(static_cast<size_t>(out_cols));
    bool finite = true;
    for (int orow = 0; orow < out_rows; ++orow) {
        const float* block = values + static_cast<int64_t>(orow) * fr * row_stride;
        for (int rr = 0; row_read && rr < fr; ++rr) row_read(block + rr * row_stride, cols);
        finite = finite && all_finite(block, row_stride, fr, cols);
        if (finite) pool_block_row(block, row_stride, fr, fc, out_cols, out + static_cast<size_t>(orow) * out_cols, part.data());
    }
    return finite;
}

// Where each output column's block of input columns is: its first column, and for k up to
// the widest block the column each block reads k-th (its first again once the block is
// done: taking the largest magnitude of a value with itself changes nothing). Blocks are
// floor or ceil of cols / out_cols wide, as c * out_cols / cols assigns them.
struct ColumnBlocks {
    int widest = 1;
    std::vector<std::vector<int>> column;  // [k][out col]

    ColumnBlocks(int cols, int out_cols) {
        std::vector<int> first(static_cast<size_t>(out_cols) + 1, cols);  // block oc: [first[oc], first[oc + 1])
        for (int c = cols - 1; c >= 0; --c) first[static_cast<size_t>(static_cast<int64_t>(c) * out_cols / cols)] = c;
        for (int oc = 0; oc < out_cols; ++oc) widest = std::max(widest, first[static_cast<size_t>(oc) + 1] - first[static_cast<size_t>(oc)]);
        column.assign(static_cast<size_t>(widest), std::vector<int>(static_cast<size_t>(out_cols)));
        for (int k = 0; k < widest; ++k) {
            for (int oc = 0; oc < out_cols; ++oc) {
                const int begin = first[static_cast<size_t>(oc)], end = first[static_cast<size_t>(oc) + 1];
                column[static_cast<size_t>(k)][static_cast<size_t>(oc)] = begin + k < end ? begin + k : begin;
            }
        }
    }

    // best[oc]: the first value of largest magnitude in block oc of `in`.
    void pool_row(const float* in, int out_cols, float* best) const {
        const int* first = column[0].data();
        for (int oc = 0; oc < out_cols; ++oc) best[oc] = in[first[oc]];
        for (int k = 1; k < widest; ++k) {
            const int* col = column[static_cast<size_t>(k)].data();
            for (int oc = 0; oc < out_cols; ++oc) {
                const float v = in[col[oc]];
                best[oc] = std::fabs(v) > std::fabs(best[oc]) ? v : best[oc];
            }
        }
    }
};

// Finite values, row by row, each row pooled while it is in the cache (and handed to
// `row_read` first). Within a row each block keeps its first value of largest magnitude,
// then across the rows of a block the first row's on ties: the first in reading order, as
// one pass over the block in reading order keeps. False, with every row still handed to
// `row_read`, once a row holds a value that is not finite (the caller pools again the
// general way).
bool pool_finite_rows(const float* values, int64_t row_stride, int rows, int cols, int out_rows, int out_cols,
                      const RowRead& row_read, float* out) {
    const ColumnBlocks blocks(cols, out_cols);
    std::vector<float> part(static_cast<size_t>(out_cols));  // (out_cols) the row's blocks
    float* best = part.data();
    bool finite = true;
    int previous_orow = -1;
    for (int r = 0; r < rows; ++r) {
        const float* in = values + r * row_stride;
        if (row_read) row_read(in, cols);
        finite = finite && run_is_finite(in, cols);
        if (!finite) continue;
        blocks.pool_row(in, out_cols, best);
        const int orow = static_cast<int>(static_cast<int64_t>(r) * out_rows / rows);
        float* out_row = out + static_cast<size_t>(orow) * out_cols;
        const bool first_row = orow != previous_orow;
        previous_orow = orow;
        for (int oc = 0; oc < out_cols; ++oc)
            out_row[oc] = first_row || std::fabs(best[oc]) > std::fabs(out_row[oc]) ? best[oc] : out_row[oc];
    }
    return finite;
}

}  // namespace

bool all_finite(const std::vector<float>& values) { return run_is_finite(values.data(), static_cast<int>(values.size())); }

std::vector<float> pool_max_abs(const std::vector<float>& values, int rows, int cols, int out_rows,
                                int out_cols) {
    if (out_rows >= rows && out_cols >= cols) return values;
    return pool_max_abs(values.data(), cols, rows, cols, out_rows, out_cols);
}

std::vector<float> pool_max_abs(const float* values, int64_t row_stride, int rows, int cols, int out_rows,
                                int out_cols, const RowRead& row_read) {
    if (out_rows >= rows && out_cols >= cols) {
        std::vector<float> copy(static_cast<size_t>(rows) * cols);
        for (int r = 0; r < rows; ++r) {
            if (row_read) row_read(values + r * row_stride, cols);
            std::copy(values + r * row_stride, values + r * row_stride + cols, &copy[static_cast<size_t>(r) * cols]);
        }
        return copy;
    }
    const float neg_inf = -std::numeric_limits<float>::infinity();
    std::vector<float> out(static_cast<size_t>(out_rows) * out_cols, neg_inf);
    // Every value finite, the usual case: one pass, each row read once. Whole blocks (256 ->
    // 128) a row of blocks at a time, at a fixed stride; other sizes (255 -> 128, a slider
    // between powers of two) row by row through each block's columns.
    const bool whole_blocks = rows % out_rows == 0 && cols % out_cols == 0;
    if (whole_blocks ? pool_whole_blocks(values, row_stride, rows, cols, out_rows, out_cols, row_read, out.data())
                     : pool_finite_rows(values, row_stride, rows, cols, out_rows, out_cols, row_read, out.data()))
        return out;
    // Masked cells or NaN: every cell again, +-inf shown only where nothing finite shares
    // the block.
    std::fill(out.begin(), out.end(), neg_inf);
    std::vector<int> ocol_of(static_cast<size_t>(cols));  // one division per column, not per cell
    for (int c = 0; c < cols; ++c) ocol_of[static_cast<size_t>(c)] = static_cast<int>(static_cast<int64_t>(c) * out_cols / cols);
    std::vector<unsigned char> has_finite(out.size(), 0);
    for (int r = 0; r < rows; ++r) {
        const int orow = static_cast<int>(static_cast<int64_t>(r) * out_rows / rows);
        const float* in_row = values + r * row_stride;
        const size_t out_row = static_cast<size_t>(orow) * out_cols;
        for (int c = 0; c < cols; ++c) {
            const size_t o = out_row + static_cast<size_t>(ocol_of[static_cast<size_t>(c)]);
            const float v = in_row[c];
            if (std::isinf(v)) {  // masked: shown only where nothing finite shares the block
                if (!has_finite[o]) out[o] = v;
                continue;
            }
            if (!has_finite[o] || std::fabs(v) > std::fabs(out[o])) out[o] = v;
            has_finite[o] = 1;
        }
    }
    return out;
}

}  // namespace attn::gui
