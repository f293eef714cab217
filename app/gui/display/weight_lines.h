// Token-to-token lines: a weight step read as lines from each query token (a column on
// the left) to the key tokens (a column on the right), one line per (query, key) pair
// the mask lets through, its width and opacity following the weight, in its head's
// colour. This file is the geometry only (which pairs, where, how wide, how opaque, which
// labels fit); views/canvas/view_weight_lines.cpp draws what it returns. No GL, no ImGui.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "app/gui/display/layout.h"
#include "app/gui/display/weights_as.h"
#include "core/trace.h"

namespace attn::gui {

// True for the steps the lines can draw: the step table's probability steps on the
// attention map (a query axis against a key axis): the weights, their head mean, dropout.
bool draws_weight_lines(StepId id);

// The weights of one head of one batch item, as the lines read them.
struct HeadWeights {
    int head = -1;               // -1: the mean over heads (attn_weights_avg)
    int queries = 0, keys = 0;   // L, S
    std::vector<float> weights;  // (L, S) row-major
    std::vector<uint8_t> masked; // (L, S): 1 where the mask hid the key from the query; empty: none hidden
    bool is_masked(int query, int key) const {
        return !masked.empty() && masked[static_cast<size_t>(query) * static_cast<size_t>(keys) + static_cast<size_t>(key)] != 0;
    }
    float weight(int query, int key) const {
        return weights[static_cast<size_t>(query) * static_cast<size_t>(keys) + static_cast<size_t>(key)];
    }
};

// Every head of batch item `batch_item` of weight step `step_index` (one entry for a
// (B, L, S) head mean), with the pairs the trace's mask step set to -inf marked (a pair of
// the head mean is masked when it is masked in every head). `head` >= 0 keeps that head only.
// Empty when the step is not a weight step or the item is out of range.
std::vector<HeadWeights> head_weights(const Trace& trace, int step_index, int batch_item, int head = -1);

// A token the learner points at: a query in the left column or a key in the right one.
struct TokenRef {
    enum class Side : uint8_t { None, Query, Key };
    Side side = Side::None;
    int index = -1;
    bool valid() const { return side != Side::None && index >= 0; }
    bool operator==(const TokenRef& o) const { return side == o.side && index == o.index; }
    bool operator!=(const TokenRef& o) const { return !(*this == o); }
};

// One line: from query `query` (left) to key `key` (right).
struct WeightLine {
    int head = -1;     // colour: HeadWeights::head
    int query = 0, key = 0;
    float weight = 0;  // the exact weight
    float width = 0;   // pixels
    float alpha = 0;   // 0..1
};

// Sizes in pixels (already multiplied by the UI scale).
struct WeightLinesStyle {
    float label_w = 80;      // room for the token labels on each side of the lines
    float gap = 6;           // between a label and its column's line ends
    float number_band = 0;   // kept beyond each column's labels for a focused token's weights
    float max_width = 5;     // the widest line (weight 1), before spacing thins it
    float min_width = 0.6f;  // the thinnest line still drawn (weight near 0)
    float font_px = 13;      // the labels' font and the smallest it may shrink to
    float min_font_px = 9;
    int longest_label = 4;   // characters of the longest token label
    // The lines run at most this many times the columns' height sideways (a short sentence
    // in a wide window is not stretched into flat lines); the columns are then centred.
    float max_span_per_height = 1.6f;
};

// Where the two token columns go: the lines' ends, the tokens' centres and their labels.
struct TokenColumns {
    Rect area;                          // everything, labels included
    float query_x = 0, key_x = 0;       // where lines start (left column) and end (right column)
    std::vector<float> query_y, key_y;  // (L), (S): the tokens' centres
    float row_h = 0;                    // spacing of the tokens (the same in both columns)
    float label_band = 0;               // width of the labels beside each column (and their gap)
    LabelFit labels;                    // font and stride of the labels (stride: a nice_stride)
};
// `queries` tokens on the left, `keys` on the right, each column centred in `area` and the
// pair of columns centred across it.
TokenColumns token_columns(int queries, int keys, const Rect& area, const WeightLinesStyle& style);

// The lines of `heads`: one per pair that is not masked (and, when `focus` is valid, that
// touches the focused token), lightest first so heavier lines lie on top. The width and
// opacity grow with the weight, relative to 1 (or to the largest weight when dropout's
// rescale makes it larger); the widest stays under the token spacing of `columns`.
std::vector<WeightLine> weight_lines(const std::vector<HeadWeights>& heads, const TokenColumns& columns,
                                     const WeightLinesStyle& style, TokenRef focus = {});

// How far the lines of query `query` (of `queries`) reach at `progress` (0..1) of the step's
// animation, 0 (still at the query) to 1 (at their keys): the queries' fans open one after
// another from the top, each over the second half of the time, so the map is read row by row
// as softmax makes it.
float fan_reach(float progress, int query, int queries);

// The weight each key receives from several queries together (the learner's selection).
struct KeySums {
    std::vector<std::vector<float>> per_head;  // (H, S): summed over the selected queries, per head shown
    std::vector<float> head_mean;              // (S): the mean of those sums over the heads
};
// Sums over `queries` (indices into the heads' query axis; others are ignored); a masked
// pair adds nothing. Empty when `heads` is.
KeySums key_sums(const std::vector<HeadWeights>& heads, const std::vector<int>& queries);

// The token whose label or line end is under (px, py): a query in the label band left of
// the left column's line ends, a key in the band right of the right one, the nearest row;
// invalid elsewhere.
TokenRef token_at(const TokenColumns& columns, float px, float py);

// The rows (indices into `y`) whose numbers can be printed beside their tokens without
// overlapping: the largest `priority` first, each kept when it lies at least `min_gap`
// from every row already kept. Returned in index order.
std::vector<int> readable_rows(const std::vector<float>& y, const std::vector<float>& priority, float min_gap);

}  // namespace attn::gui
