// Model overview (View > Overview): one thumbnail of the attention weights per layer and
// head for the sentence on screen, each with how peaked it is and what the model card
// claims for that head; Ctrl+click on several heads adds their mean. This file is the
// numbers and the geometry; views/canvas/view_overview.cpp draws what it returns.
// No GL, no ImGui. Built on the compute worker (build_overview) when the overview is open.
#pragma once

#include <optional>
#include <vector>

#include "app/gui/display/layout.h"
#include "app/gui/display/weight_lines.h"
#include "core/message.h"
#include "core/model/model.h"
#include "core/trace.h"

namespace attn::gui {

// A thumbnail's picture: the weights averaged over blocks of cells (a block is one cell
// when L and S fit), so a thumbnail of L = 512 draws at most kOverviewSide^2 cells.
inline constexpr int kOverviewSide = 48;

// Which thumbnail: (layer, head). head -1 is the step's head mean (attn_weights_avg).
struct HeadRef {
    int layer = 0, head = -1;
    bool operator==(const HeadRef& o) const { return layer == o.layer && head == o.head; }
    bool operator!=(const HeadRef& o) const { return !(*this == o); }
};

// How peaked a weight map is (display/weight_focus.h's row_focus, averaged over the rows
// it counts: rows with every key masked or a single visible key are left out).
struct Peakedness {
    float mean_max = 0;      // mean over rows of the largest weight in the row
    float mean_entropy = 0;  // mean over rows of the row's entropy, 0 (one key) .. 1 (uniform)
    int counted_rows = 0;
};
// Of one head's (L, S) weights; a masked pair is a key the query could not see.
Peakedness peakedness(const HeadWeights& weights);

// A weight map drawn small: `rows` x `cols` blocks of the (L, S) map.
struct ThumbPicture {
    int rows = 0, cols = 0;
    std::vector<float> values;    // (rows, cols) the mean weight of each block
    std::vector<uint8_t> masked;  // (rows, cols) 1 where every pair of the block is masked; empty: none
};
// `weights` pooled to at most `side` x `side` blocks (block edges at i * L / rows).
ThumbPicture pool_weights(const HeadWeights& weights, int side = kOverviewSide);

struct OverviewThumb {
    HeadRef ref;
    HeadWeights weights;  // (L, S) the full map, for the tooltip's numbers and the heads' mean
    ThumbPicture picture;
    Peakedness peak;
    std::vector<Message> claims;  // the model card's claims for this head, in the card's order (Message::written)
};

// Every thumbnail of one weight step.
struct OverviewGrid {
    StepId step = StepId::AttnWeights;
    int layers = 0, heads = 0;         // heads per layer: H, or 1 for a head mean
    std::vector<OverviewThumb> thumbs; // (layers * heads), layer-major
    float largest = 0;                 // the largest weight of any thumbnail
    float value_max = 1;               // top of the colour scale: 1, or `largest` when dropout's rescale passes 1
    // The colour scale's top as View > "Stretch probabilities to the data" asks.
    float top(bool stretch) const { return stretch && largest > 0 ? largest : value_max; }
    const OverviewThumb* find(HeadRef ref) const;
};

// The overview of one sentence: a grid per weight step the layers record.
struct ModelOverview {
    int batch_item = 0;
    int shown_layer = 0;               // the layer the trace on screen shows
    std::vector<OverviewGrid> grids;
    // The grid of `shown` when it is a weight step with a grid, else attn_weights'; null if neither.
    const OverviewGrid* grid_for(StepId shown) const;
};

// The grids of every weight step (draws_weight_lines) of `layers`, one attention trace per
// layer in order (a random configuration: the trace on screen alone), for batch item
// `batch_item`. `spec` (may be null) gives each head its card claim.
ModelOverview build_overview(const std::vector<const Trace*>& layers, int shown_layer, int batch_item,
                             const ModelSpec* spec = nullptr);

// The mean of the selected thumbnails' full maps (the same L and S; refs missing from the
// grid are ignored), as a thumbnail with ref {-1, -1}; nullopt with fewer than two.
std::optional<OverviewThumb> mean_of_heads(const OverviewGrid& grid, const std::vector<HeadRef>& selected);
// The mean of `heads` (the same L and S) as one map: a pair is masked where every head masks it.
HeadWeights mean_weights(const std::vector<const HeadWeights*>& heads);
// The lines view's share of the selection: the mean of those of `heads` (one layer's, as
// head_weights returns them) that `selected` names on layer `layer`, with head -1;
// nullopt when fewer than two of them are selected.
std::optional<HeadWeights> mean_of_selected(const std::vector<HeadWeights>& heads, const std::vector<HeadRef>& selected, int layer);

// ---- Geometry ----

// Sizes in pixels (already multiplied by the UI scale).
struct OverviewStyle {
    float font_px = 13;      // the labels' font, and the smallest it may shrink to
    float min_font_px = 9;
    float gap = 10;          // between thumbnails
    float min_side = 24;     // a thumbnail smaller than this is not worth a picture
    float max_side = 320;    // a thumbnail larger than this only wastes room
    int wanted_lines = 3;    // label lines under a thumbnail: numbers, claim (two when it has one)
};

struct OverviewCell {
    int thumb = -1;          // index into the grid's thumbs; -1: the selection's mean
    Rect title;              // the line above the picture ("layer 1 · head 2")
    Rect picture;            // the square thumbnail
    Rect labels;             // the lines under it (lines x line_h)
};

struct OverviewLayout {
    Rect area;
    int columns = 0, rows = 0;
    float side = 0;          // a thumbnail's edge
    float font_px = 0;       // the labels' size (shrunk from style.font_px when room is short)
    float line_h = 0;
    int label_lines = 0;     // label lines under each picture (0..style.wanted_lines)
    bool titles = true;      // the title line above each picture
    std::vector<OverviewCell> cells;  // the grid's thumbs in order, then the mean when there is one
};

// Places `layers` x `heads` thumbnails (plus one for the mean when `with_mean`) in `area`:
// with several layers a row per layer (the mean on a row of its own), with one layer the
// heads wrapped into the columns that give the largest thumbnails. Labels first shrink to
// style.min_font_px, then drop lines (claim, numbers, title), so none overlaps the next cell.
OverviewLayout overview_layout(int layers, int heads, bool with_mean, const Rect& area, const OverviewStyle& style);

// The cell under (px, py) (its picture or its labels): an index into layout.cells, or -1.
int cell_at(const OverviewLayout& layout, float px, float py);

}  // namespace attn::gui
