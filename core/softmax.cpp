#include "core/softmax.h"

#include <limits>

namespace attn {

using RowArray = Eigen::Array<float, 1, Eigen::Dynamic, Eigen::RowMajor>;

int masked_softmax_rows(const float* scores, float* weights, int rows, int cols, unsigned char* row_flags) {
    constexpr float neg_inf = -std::numeric_limits<float>::infinity();
    int fully_masked = 0;
    for (int i = 0; i < rows; ++i) {
        Eigen::Map<const RowArray> in(scores + static_cast<ptrdiff_t>(i) * cols, cols);
        Eigen::Map<RowArray> out(weights + static_cast<ptrdiff_t>(i) * cols, cols);
        const float row_max = in.maxCoeff();
        if (row_max == neg_inf) {
            // Every key is masked: softmax would be 0/0. Attend to nothing instead.
            out.setZero();
            if (row_flags) row_flags[i] = 1;
            ++fully_masked;
            continue;
        }
        // Subtracting the max keeps exp() <= 1, so large scores cannot overflow.
        // Vectorised exp(-inf) is not always exactly 0 (Eigen 3.4 gave 2.9e-39 without AVX,
        // 0 with it), so masked entries are zeroed explicitly.
        out = (in - row_max).exp();
        float sum = 0.0f;
        for (int j = 0; j < cols; ++j) {  // a plain loop the compiler vectorises as a blend
            const float e = in[j] == neg_inf ? 0.0f : out[j];
            out[j] = e;
            sum += e;
        }
        out *= 1.0f / sum;
        if (row_flags) row_flags[i] = 0;
    }
    return fully_masked;
}

}  // namespace attn
