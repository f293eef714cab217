#include "core/softmax.h"

#include <limits>

namespace attn {

namespace {
template <typename T>
using RowArray = Eigen::Array<T, 1, Eigen::Dynamic, Eigen::RowMajor>;
}  // namespace

template <typename T>
T softmax_row_max(const T* x, int64_t n) {
    return Eigen::Map<const RowArray<T>>(x, n).maxCoeff();
}

template <typename T>
void softmax_exponentials(const T* x, int64_t n, T row_max, T* e) {
    constexpr T neg_inf = -std::numeric_limits<T>::infinity();
    Eigen::Map<const RowArray<T>> in(x, n);
    Eigen::Map<RowArray<T>> out(e, n);
    out = (in - row_max).exp();
    for (int64_t j = 0; j < n; ++j) out[j] = in[j] == neg_inf ? T(0) : out[j];  // vectorises as a blend
}

template <typename T>
T lane_sum(const T* x, int64_t n) {
    // Entry j goes to lane j % kSumLanes, each lane summed in order; the lanes then pairwise.
    // The order is the code's, not the vector width's: the same sum on every machine, and
    // sixteen additions in flight instead of one (a 1024-key row's chain of 1024 dependent
    // additions was a tenth of the forward at 1024/1024/16).
    T lane[kSumLanes] = {};
    int64_t j = 0;
    for (; j + kSumLanes <= n; j += kSumLanes)
        for (int k = 0; k < kSumLanes; ++k) lane[k] += x[j + k];
    for (int k = 0; j < n; ++j, ++k) lane[k] += x[j];
    for (int width = kSumLanes / 2; width > 0; width /= 2)
        for (int k = 0; k < width; ++k) lane[k] += lane[k + width];
    return lane[0];
}

template float softmax_row_max<float>(const float*, int64_t);
template double softmax_row_max<double>(const double*, int64_t);
template void softmax_exponentials<float>(const float*, int64_t, float, float*);
template void softmax_exponentials<double>(const double*, int64_t, double, double*);
template float lane_sum<float>(const float*, int64_t);
template double lane_sum<double>(const double*, int64_t);

int masked_softmax_rows(const float* scores, float* weights, int rows, int cols, unsigned char* row_flags) {
    int fully_masked = 0;
    for (int i = 0; i < rows; ++i) {
        const float* in = scores + static_cast<ptrdiff_t>(i) * cols;
        float* out = weights + static_cast<ptrdiff_t>(i) * cols;
        const float row_max = softmax_row_max(in, cols);
        const bool no_key_left = row_max == -std::numeric_limits<float>::infinity();
        if (row_flags) row_flags[i] = no_key_left ? 1 : 0;
        if (no_key_left) {  // softmax would be 0/0: attend to nothing instead
            Eigen::Map<RowArray<float>>(out, cols).setZero();
            ++fully_masked;
            continue;
        }
        softmax_exponentials(in, cols, row_max, out);
        Eigen::Map<RowArray<float>>(out, cols) *= 1.0f / lane_sum(out, cols);
    }
    return fully_masked;
}

}  // namespace attn
