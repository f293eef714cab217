// Weight focus: how peaked each row of an attention-weight matrix is, as numbers, so
// "uniform" and "focused" can be read as well as seen. Pure functions, no GL, no ImGui;
// the canvas only prints what these return.
//
// For one query row with weights p over the keys it may see (n of them, masked keys
// excluded):
//   max_weight = max_j p_j
//   entropy    = -sum_j q_j log q_j / log n, with q = p / sum(p)   (0 = all on one key,
//                1 = uniform over the n keys; a row after dropout is renormalised first)
#pragma once

#include <limits>
#include <string>
#include <vector>

#include "core/tensor.h"

namespace attn::gui {

struct RowFocus {
    float max_weight = 0;  // largest weight in the row (after dropout it may exceed 1)
    float entropy = 0;     // normalised to 0..1 over the row's visible keys
    int keys = 0;          // keys the query could attend to (not masked)
    // False when the row says nothing about focus: every key masked, every weight dropped,
    // or a single visible key (no choice to make). Such rows are left out of the means.
    bool counted = false;
};

struct HeadFocus {
    int head = 0;
    std::vector<RowFocus> rows;  // (L)
    int counted_rows = 0;
    float mean_max = 0;          // over counted rows
    float mean_entropy = 0;      // over counted rows
};

// One row: `weights` (cols) and, when not null, `scores` (cols), the masked scores of the
// same row, whose entries at -inf or at the mask's `fill` (-1e20, finfo.min:
// is_masked_score) mark the keys the query could not see.
RowFocus row_focus(const float* weights, const float* scores, int cols,
                   float fill = -std::numeric_limits<float>::infinity());

// Head `head`'s figures from its rows (L): the means over the counted ones.
HeadFocus summarise_head(int head, std::vector<RowFocus> rows);

// Every head of batch item `batch_item` of a (B, H, L, S) weight tensor; `masked` is the
// (B, H, L, S) masked-score tensor or nullptr when nothing was masked. Returns (H) heads;
// empty when the tensor is not rank 4 or the shapes differ.
std::vector<HeadFocus> weight_focus(const Tensor& weights, const Tensor* masked, int batch_item,
                                    float fill = -std::numeric_limits<float>::infinity());

// A word for a mean normalised entropy: "focused" (< 0.5), "spread" (< 0.85) or
// "near uniform".
const char* focus_word(float mean_entropy);

// "head 2: mean max 0.81, entropy 0.32 (focused)"; "head 2: no row to measure" when
// no row counted.
std::string head_focus_line(const HeadFocus& focus);

}  // namespace attn::gui
