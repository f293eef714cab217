// Row-wise softmax over keys, numerically stable and mask-aware.
#pragma once

#include "core/dims.h"

namespace attn {

// weights[i, :] = softmax(scores[i, :]) over the entries that are not -inf.
// Subtracts the row max before exp; masked (-inf) entries become exactly 0; a row
// whose entries are all -inf becomes all zeros (not NaN). Returns the number of
// such fully masked rows; if `row_flags` is non-null, row_flags[i] = 1 for each.
// scores, weights: (rows, cols), separate buffers.
int masked_softmax_rows(const float* scores, float* weights, int rows, int cols,
                        unsigned char* row_flags = nullptr);

}  // namespace attn
