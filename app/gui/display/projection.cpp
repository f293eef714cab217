// Projection steps as X W^T + b; see projection.h.
#include "app/gui/display/projection.h"

#include <algorithm>
#include <cmath>

#include "core/explain_cell.h"

namespace attn::gui {
namespace {

// Part index and row inside it for output feature o.
std::pair<size_t, int> locate(const ProjectionWeights& pw, int o) {
    for (size_t k = 0; k < pw.parts.size(); ++k) {
        const int rows = static_cast<int>(pw.parts[k]->rows());
        if (o < rows) return {k, o};
        o -= rows;
    }
    return {pw.parts.size(), 0};
}

}  // namespace

ProjectionWeights projection_weights(const Trace& trace, int step) {
    ProjectionWeights pw;
    if (step < 0 || step >= static_cast<int>(trace.steps.size())) return pw;
    const Step& s = trace.steps[static_cast<size_t>(step)];
    if (s.kind != StepKind::Projection || !s.has_primary_source() || !s.provenance.has_weight) return pw;
    const AttentionWeights& w = trace.weights();
    bool bias = true;  // each projection has its own bias or none (--no-qkv-bias, --no-out-bias)
    for (WeightId part : weight_parts(s.provenance.weight)) bias = bias && linear_params(w, part).bias.size() > 0;
    for (WeightId part : weight_parts(s.provenance.weight)) {
        const LinearParams params = linear_params(w, part);
        pw.parts.push_back(&params.weight);
        if (bias) pw.biases.push_back(&params.bias);
    }
    pw.w_name = weight_symbol(s.provenance.weight);
    pw.b_name = bias_symbol(s.provenance.weight);
    pw.in = static_cast<int>(pw.parts.front()->cols());
    for (size_t k = 0; k < pw.parts.size(); ++k) {
        // Every part must read the same input width, and biases must match their rows.
        if (pw.parts[k]->cols() != pw.in || pw.parts[k]->rows() == 0) return ProjectionWeights{};
        if (bias && pw.biases[k]->size() != pw.parts[k]->rows()) return ProjectionWeights{};
        pw.out += static_cast<int>(pw.parts[k]->rows());
    }
    pw.source_step = trace.index_of(s.primary_source());
    const Tensor* x = pw.source_step >= 0 ? &trace.steps[static_cast<size_t>(pw.source_step)].tensor : nullptr;
    if (!x || x->rank() != 3 || x->dim(2) != pw.in) return ProjectionWeights{};
    return pw;
}

float weight_at(const ProjectionWeights& pw, int o, int i) {
    const auto [k, r] = locate(pw, o);
    if (k >= pw.parts.size() || i < 0 || i >= pw.in) return 0.0f;
    return (*pw.parts[k])(r, i);
}

float bias_at(const ProjectionWeights& pw, int o) {
    if (!pw.has_bias()) return 0.0f;
    const auto [k, r] = locate(pw, o);
    return k < pw.biases.size() ? (*pw.biases[k])(r) : 0.0f;
}

int panel_first_feature(const StepDisplay& sd, const Panel& panel, int head_dim) {
    // Heads as their own panels (stacked: (B, H, N, d_h)) start at h * d_h; column
    // groups and single panels carry their offset in the column index.
    if (sd.arrangement == Arrangement::Grid && panel.head >= 0) return panel.head * head_dim;
    if (panel.col_dim >= 0 && static_cast<size_t>(panel.col_dim) < panel.origin.size()) {
        return static_cast<int>(panel.origin[static_cast<size_t>(panel.col_dim)]);
    }
    return 0;
}

void build_weight_panels(const ProjectionWeights& pw, const StepDisplay& sd, int head_dim, int cap,
                         std::vector<Panel>& weights_t, std::vector<Panel>& biases, float& vmin, float& vmax) {
    weights_t.clear();
    biases.clear();
    if (!pw.valid()) return;
    // A plain loop: Eigen's vectorised maxCoeff trips GCC 12's -Wmaybe-uninitialized.
    float m = 1e-6f;
    const auto widen = [&m](const float* v, Eigen::Index n) {
        for (Eigen::Index i = 0; i < n; ++i) m = std::max(m, std::fabs(v[i]));
    };
    for (const Mat* part : pw.parts) widen(part->data(), part->size());
    for (const Vec* b : pw.biases) widen(b->data(), b->size());
    vmin = -m;
    vmax = m;
    for (const Panel& result : sd.panels) {
        const int f0 = panel_first_feature(sd, result, head_dim);
        const int cols = std::min(result.cols, pw.out - f0);
        if (cols <= 0) continue;
        Panel wt;
        wt.head = result.head;
        wt.label = result.label;
        wt.rows = pw.in;
        wt.cols = cols;
        // W^T (in, cols): column j of this panel is row f0 + j of W.
        std::vector<float> full(static_cast<size_t>(pw.in) * cols);
        for (int j = 0; j < cols; ++j) {
            const auto [k, r] = locate(pw, f0 + j);
            const Mat& part = *pw.parts[k];
            for (int i = 0; i < pw.in; ++i) full[static_cast<size_t>(i) * cols + j] = part(r, i);
        }
        wt.tex_rows = std::min(pw.in, cap);
        wt.tex_cols = std::min(cols, cap);
        wt.values = pool_max_abs(full, pw.in, cols, wt.tex_rows, wt.tex_cols);
        weights_t.push_back(std::move(wt));
        if (!pw.has_bias()) continue;
        Panel bp;
        bp.head = result.head;
        bp.rows = 1;
        bp.cols = cols;
        std::vector<float> row(static_cast<size_t>(cols));
        for (int j = 0; j < cols; ++j) row[static_cast<size_t>(j)] = bias_at(pw, f0 + j);
        bp.tex_rows = 1;
        bp.tex_cols = std::min(cols, cap);
        bp.values = pool_max_abs(row, 1, cols, 1, bp.tex_cols);
        biases.push_back(std::move(bp));
    }
}

ProductLayout layout_product(int rows, int in, const std::vector<int>& group_cols, float gap, bool bias,
                             const Rect& area, const LayoutStyle& style) {
    ProductLayout out;
    if (rows <= 0 || in <= 0 || group_cols.empty()) return out;
    int total_out = 0;
    for (int c : group_cols) total_out += std::max(0, c);
    if (total_out <= 0) return out;
    const float gaps = gap * static_cast<float>(group_cols.size() - 1);
    const float mid = style.gap * 1.5f;  // between X and Y, and between W^T (or b) and Y
    const float top = style.header + style.col_header;  // head bars and column labels above W^T
    const float bias_gap = bias ? 4.0f : 0.0f;

    const float col_w = std::min(style.max_cell, (area.w - style.row_gutter - mid - gaps) / static_cast<float>(in + total_out));
    if (!(col_w > 0.0f)) return out;
    const float wide_bias_h = bias ? std::clamp(col_w, style.min_row * 0.5f, style.max_cell * 0.6f) : 0.0f;
    float bias_h = wide_bias_h;
    float row_h = 0.0f, in_h = 0.0f;
    // The bias row's height depends on the rows' (1.5 rows, at least one row of W^T) and
    // the rows' on what it reserves: a few passes settle both, so no spare height sits
    // empty above the picture. The rows are always computed with the final bias height.
    for (int pass = 0; pass < 6; ++pass) {
        const float avail_h = area.h - top - mid - bias_h - bias_gap;
        if (!(avail_h > 0.0f)) return out;
        // Square cells when they fit. Otherwise the result comes first: the rows of X and Y
        // keep their height while W^T, at least a third of the height, gives up its own; a
        // row of W^T is never taller than a row of the result (Y is what the step makes).
        row_h = std::min(std::max(col_w, style.min_row), style.max_cell);
        in_h = col_w;
        const float fin = static_cast<float>(in), frows = static_cast<float>(rows);
        if (frows * row_h + fin * in_h > avail_h) {
            in_h = std::min(col_w, std::max(avail_h / 3.0f, avail_h - frows * row_h) / fin);
            row_h = std::min(row_h, (avail_h - fin * in_h) / frows);
            if (in_h > row_h) in_h = row_h = avail_h / (frows + fin);
        }
        if (!bias || pass == 5) break;
        // At least as tall as a row of W^T: many short X rows must not squash b to a line;
        // never taller than a row of the result (b is an operand).
        const float fitted = std::clamp(std::min({wide_bias_h, std::max(row_h * 1.5f, in_h), row_h}), 3.0f, style.max_cell * 0.6f);
        if (std::fabs(fitted - bias_h) < 0.25f) break;
        bias_h = fitted;
    }
    out.in_w = col_w;
    out.out_w = col_w;
    out.in_h = in_h;
    out.row_h = row_h;

    const float width = style.row_gutter + static_cast<float>(in + total_out) * col_w + mid + gaps;
    const float height = top + static_cast<float>(in) * in_h + bias_h + bias_gap + mid + static_cast<float>(rows) * row_h;
    const float left = area.x + std::max(0.0f, (area.w - width) * 0.5f);
    const float y0 = area.y + std::max(0.0f, (area.h - height) * 0.5f);
    const float w_top = y0 + top;
    const float w_bottom = w_top + static_cast<float>(in) * in_h;
    const float y_top = w_bottom + bias_h + bias_gap + mid;
    out.x = Rect{left + style.row_gutter, y_top, static_cast<float>(in) * col_w, static_cast<float>(rows) * row_h};
    float x = out.x.right() + mid;
    for (int c : group_cols) {
        const float w = static_cast<float>(c) * col_w;
        out.w.push_back(Rect{x, w_top, w, w_bottom - w_top});
        if (bias) out.b.push_back(Rect{x, w_bottom + bias_gap, w, bias_h});
        PanelPlace place;
        place.rect = Rect{x, y_top, w, out.x.h};
        place.cell_w = col_w;
        place.cell_h = row_h;
        out.y.push_back(place);
        x += w + gap;
    }
    out.ok = true;
    return out;
}

}  // namespace attn::gui
