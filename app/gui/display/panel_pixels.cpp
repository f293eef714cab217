#include "app/gui/display/panel_pixels.h"

#include <algorithm>
#include <cmath>

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

// NaN and -inf are mapped to values that cannot win, so the reductions are exact in
// any order and the loop vectorises.
void scan_run(const float* v, int n, float& lo, float& hi, int64_t& neg_infs) {
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

std::vector<float> pool_max_abs(const std::vector<float>& values, int rows, int cols, int out_rows,
                                int out_cols) {
    if (out_rows >= rows && out_cols >= cols) return values;
    const float neg_inf = -std::numeric_limits<float>::infinity();
    std::vector<float> out(static_cast<size_t>(out_rows) * out_cols, neg_inf);
    std::vector<int> ocol_of(static_cast<size_t>(cols));  // one division per column, not per cell
    for (int c = 0; c < cols; ++c) ocol_of[static_cast<size_t>(c)] = static_cast<int>(static_cast<int64_t>(c) * out_cols / cols);
    bool any_inf = false;
    for (float v : values) any_inf |= std::isinf(v);
    if (!any_inf) {
        // The usual case, done block by block: each output starts from the first value of
        // its block and takes any of strictly larger magnitude, in the same row-major order
        // as the general loop below, so both give the same result.
        std::vector<int> first_col(static_cast<size_t>(out_cols) + 1, cols);  // block oc: [first_col[oc], first_col[oc + 1])
        for (int c = cols - 1; c >= 0; --c) first_col[static_cast<size_t>(ocol_of[static_cast<size_t>(c)])] = c;
        int previous_orow = -1;
        for (int r = 0; r < rows; ++r) {
            const int orow = static_cast<int>(static_cast<int64_t>(r) * out_rows / rows);
            const bool first_row = orow != previous_orow;
            previous_orow = orow;
            const float* in_row = values.data() + static_cast<size_t>(r) * cols;
            float* out_row = out.data() + static_cast<size_t>(orow) * out_cols;
            for (int oc = 0; oc < out_cols; ++oc) {
                const int begin = first_col[static_cast<size_t>(oc)], end = first_col[static_cast<size_t>(oc) + 1];
                float best = first_row ? in_row[begin] : out_row[oc];
                float best_abs = std::fabs(best);
                for (int c = begin; c < end; ++c) {
                    const float a = std::fabs(in_row[c]);
                    if (a > best_abs) {  // NaN never wins (and a NaN first value stays)
                        best_abs = a;
                        best = in_row[c];
                    }
                }
                out_row[oc] = best;
            }
        }
        return out;
    }
    std::vector<unsigned char> has_finite(out.size(), 0);
    for (int r = 0; r < rows; ++r) {
        const int orow = static_cast<int>(static_cast<int64_t>(r) * out_rows / rows);
        const float* in_row = values.data() + static_cast<size_t>(r) * cols;
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
