// Softmax over keys (or over a vocabulary), written once. Every softmax in the project
// takes its row max and its exponentials from here: the forward's attention weights
// (masked_softmax_rows, float32), a model's next-word probabilities (softmax_rows_of,
// double), explain_cell's worked rows and the scaling note (core/step_text.cpp), so what
// they show is the arithmetic the forward did.
//
// Bit-for-bit notes for callers that want to reproduce a row exactly:
//   - Eigen computes exp four to sixteen entries at a time, and entries before the first
//     aligned one and after the last full packet one by one (std::exp, which can differ
//     in the last bit), so the split depends on where `e` sits in memory: write the
//     exponentials at the same address modulo 64 bytes as the row to reproduce.
//   - The forward runs with denormals flushed to zero (FlushDenormals, core/ops.h).
#pragma once

#include <cstdint>

#include "core/dims.h"

namespace attn {

// The largest of x[0..n): what every exponential is taken relative to, so none exceeds 1.
// -inf when every entry is -inf (a fully masked row).
template <typename T>
T softmax_row_max(const T* x, int64_t n);

// e[j] = exp(x[j] - row_max) by Eigen's vectorised exp, then exactly 0 where x[j] is -inf:
// Eigen 3.4's vectorised exp(-inf) gave 2.9e-39 without AVX and 0 with it.
// x, e: (n), separate buffers.
template <typename T>
void softmax_exponentials(const T* x, int64_t n, T row_max, T* e);

// The sum of x[0..n) in the order the forward sums a row's exponentials: entry j into lane
// j % kSumLanes, each lane from the left, then lane k += lane k + w for w = 8, 4, 2, 1.
constexpr int kSumLanes = 16;
template <typename T>
T lane_sum(const T* x, int64_t n);

// weights[i, :] = softmax(scores[i, :]) over the entries that are not -inf: the row max,
// the exponentials, their lane_sum, then each times 1/sum. A row whose entries
// are all -inf becomes all zeros (not NaN). Returns the number of such fully masked rows;
// if `row_flags` is non-null, row_flags[i] = 1 for each, 0 for the others.
// scores, weights: (rows, cols), separate buffers.
int masked_softmax_rows(const float* scores, float* weights, int rows, int cols,
                        unsigned char* row_flags = nullptr);

}  // namespace attn
