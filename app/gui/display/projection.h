// Projection steps as a matrix product: which weight matrix a Projection step used
// (a cell's terms come from core/explain_cell.h), and where X, W^T and the result sit on the
// canvas. Pure logic (no GL, no ImGui); every number comes from the CPU trace.
//
// Vocabulary (per batch item): X is (N, in) with N = L or S; W is (out, in) as nn.Linear
// stores it; the step's result is Y = X W^T + b, (N, out). For the fused variant W is
// [W_q; W_k; W_v] (3E, E); for the stacked variant head h uses rows [h*d_h, (h+1)*d_h).
#pragma once

#include <string>
#include <vector>

#include "app/gui/display/display_model.h"
#include "app/gui/display/layout.h"
#include "core/trace.h"

namespace attn::gui {

// The weights behind one Projection step: row blocks of the trace's matrices, in order.
struct ProjectionWeights {
    std::vector<const Mat*> parts;   // each (rows_k, in); stacked one after another = W (out, in)
    std::vector<const Vec*> biases;  // one per part, (rows_k) each; empty when no bias
    int out = 0, in = 0;
    int source_step = -1;            // the step holding X
    std::string w_name;              // "W_q", "W_qkv", "W_o"
    std::string b_name;              // "b_q", ...
    bool valid() const { return !parts.empty() && out > 0 && in > 0 && source_step >= 0; }
    bool has_bias() const { return !biases.empty(); }
};

// The weights a Projection step used (invalid for other steps or when the trace
// carries no weights).
ProjectionWeights projection_weights(const Trace& trace, int step);
// W(o, i), the nn.Linear element; o in [0, out), i in [0, in).
float weight_at(const ProjectionWeights& pw, int o, int i);
// b(o), 0 when the layer has no bias.
float bias_at(const ProjectionWeights& pw, int o);

// The output feature (column of Y, row of W) where column 0 of `panel` starts:
// head h of a stacked step starts at h * d_h, a column group at its own offset.
int panel_first_feature(const StepDisplay& sd, const Panel& panel, int head_dim);

// W^T as display panels: one (in, cols) panel per result panel (same column groups),
// values max-|v| pooled to at most `cap` per side; and the bias as (1, cols) panels.
void build_weight_panels(const ProjectionWeights& pw, const StepDisplay& sd, int head_dim, int cap,
                         std::vector<Panel>& weights_t, std::vector<Panel>& biases, float& vmin, float& vmax);

// Where the product's pieces go:    [ W^T ]
//                                    [ b   ]   (when there is a bias)
//                             [ X ]  [ Y   ]
struct ProductLayout {
    bool ok = false;
    Rect x;                      // (N, in)
    std::vector<Rect> w;         // per column group, (in, cols_g)
    std::vector<Rect> b;         // per column group, (1, cols_g); empty without bias
    std::vector<PanelPlace> y;   // per column group, (N, cols_g)
    float in_w = 0;              // width of one X column
    float in_h = 0;              // height of one W^T row
    float out_w = 0, row_h = 0;  // width of a Y column, height of an X / Y row
};
// `group_cols`: columns of each result panel; `gap`: between groups (0 when joined).
// `gutter`: room for labels left of X; `header`: room for titles above X/W and labels.
ProductLayout layout_product(int rows, int in, const std::vector<int>& group_cols, float gap, bool bias,
                             const Rect& area, const LayoutStyle& style);

}  // namespace attn::gui
