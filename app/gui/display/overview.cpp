#include "app/gui/display/overview.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "app/gui/display/weight_focus.h"

namespace attn::gui {

namespace {

size_t at(int row, int col, int cols) { return static_cast<size_t>(row) * static_cast<size_t>(cols) + static_cast<size_t>(col); }

// The block edges of `count` cells cut into `blocks`: block i covers [edge(i), edge(i + 1)).
int edge(int i, int count, int blocks) {
    return static_cast<int>(static_cast<int64_t>(i) * count / std::max(1, blocks));
}

}  // namespace

Peakedness peakedness(const HeadWeights& weights) {
    Peakedness out;
    // row_focus reads masked keys from a row of masked scores: -inf where the mask hid the key.
    const float hidden = -std::numeric_limits<float>::infinity();
    std::vector<float> scores(static_cast<size_t>(weights.keys), 0.0f);
    std::vector<RowFocus> rows;
    rows.reserve(static_cast<size_t>(weights.queries));
    for (int q = 0; q < weights.queries; ++q) {
        for (int k = 0; k < weights.keys; ++k) scores[static_cast<size_t>(k)] = weights.is_masked(q, k) ? hidden : 0.0f;
        rows.push_back(row_focus(&weights.weights[at(q, 0, weights.keys)], scores.data(), weights.keys));
    }
    const HeadFocus means = summarise_head(0, std::move(rows));  // the same means as the canvas's
    out.counted_rows = means.counted_rows;
    out.mean_max = means.mean_max;
    out.mean_entropy = means.mean_entropy;
    return out;
}

ThumbPicture pool_weights(const HeadWeights& weights, int side) {
    ThumbPicture pic;
    pic.rows = std::min(weights.queries, std::max(1, side));
    pic.cols = std::min(weights.keys, std::max(1, side));
    if (weights.queries <= 0 || weights.keys <= 0) return ThumbPicture{};
    pic.values.assign(static_cast<size_t>(pic.rows) * static_cast<size_t>(pic.cols), 0.0f);
    if (!weights.masked.empty()) pic.masked.assign(pic.values.size(), 0);
    for (int r = 0; r < pic.rows; ++r) {
        const int q0 = edge(r, weights.queries, pic.rows), q1 = edge(r + 1, weights.queries, pic.rows);
        for (int c = 0; c < pic.cols; ++c) {
            const int k0 = edge(c, weights.keys, pic.cols), k1 = edge(c + 1, weights.keys, pic.cols);
            double sum = 0;
            bool all_masked = true;
            for (int q = q0; q < q1; ++q)
                for (int k = k0; k < k1; ++k) {
                    sum += weights.weight(q, k);
                    all_masked = all_masked && weights.is_masked(q, k);
                }
            pic.values[at(r, c, pic.cols)] = static_cast<float>(sum / std::max(1, (q1 - q0) * (k1 - k0)));
            if (!pic.masked.empty()) pic.masked[at(r, c, pic.cols)] = all_masked ? 1 : 0;
        }
    }
    return pic;
}

const OverviewThumb* OverviewGrid::find(HeadRef ref) const {
    for (const OverviewThumb& t : thumbs)
        if (t.ref == ref) return &t;
    return nullptr;
}

const OverviewGrid* ModelOverview::grid_for(StepId shown) const {
    const OverviewGrid* weights = nullptr;
    for (const OverviewGrid& g : grids) {
        if (g.step == shown) return &g;
        if (g.step == StepId::AttnWeights) weights = &g;
    }
    return weights;
}

namespace {

OverviewThumb make_thumb(HeadRef ref, HeadWeights weights, const ModelSpec* spec) {
    OverviewThumb t;
    t.ref = ref;
    t.picture = pool_weights(weights);
    t.peak = peakedness(weights);
    t.weights = std::move(weights);
    if (spec)
        for (const HeadClaim& c : spec->head_claims)
            if (c.layer == ref.layer && c.head == ref.head) t.claims.push_back(c.claim);
    return t;
}

// The grid of step `id` over every layer; empty when a layer does not record it.
OverviewGrid build_grid(const std::vector<const Trace*>& layers, StepId id, int batch_item, const ModelSpec* spec) {
    OverviewGrid grid;
    grid.step = id;
    for (size_t layer = 0; layer < layers.size(); ++layer) {
        std::vector<HeadWeights> heads = head_weights(*layers[layer], layers[layer]->index_of(id), batch_item);
        if (heads.empty() || (grid.heads > 0 && static_cast<int>(heads.size()) != grid.heads)) return OverviewGrid{};
        grid.heads = static_cast<int>(heads.size());
        for (HeadWeights& hw : heads) {
            for (float v : hw.weights)
                if (std::isfinite(v)) grid.largest = std::max(grid.largest, v);
            const HeadRef ref{static_cast<int>(layer), hw.head};
            grid.thumbs.push_back(make_thumb(ref, std::move(hw), spec));
        }
    }
    grid.layers = static_cast<int>(layers.size());
    grid.value_max = std::max(1.0f, grid.largest);
    return grid;
}

}  // namespace

ModelOverview build_overview(const std::vector<const Trace*>& layers, int shown_layer, int batch_item, const ModelSpec* spec) {
    ModelOverview overview;
    overview.batch_item = batch_item;
    overview.shown_layer = shown_layer;
    if (layers.empty() || !layers.front()) return overview;
    for (const StepId id : kAllStepIds) {
        if (!draws_weight_lines(id) || layers.front()->index_of(id) < 0) continue;
        OverviewGrid grid = build_grid(layers, id, batch_item, spec);
        if (!grid.thumbs.empty()) overview.grids.push_back(std::move(grid));
    }
    return overview;
}

HeadWeights mean_weights(const std::vector<const HeadWeights*>& heads) {
    HeadWeights mean;
    if (heads.empty()) return mean;
    mean.queries = heads.front()->queries;
    mean.keys = heads.front()->keys;
    const size_t n = static_cast<size_t>(mean.queries) * static_cast<size_t>(mean.keys);
    std::vector<double> sum(n, 0.0);
    std::vector<uint8_t> masked(n, 1);
    bool any_masked = true;
    for (const HeadWeights* hw : heads) {
        for (size_t i = 0; i < n; ++i) sum[i] += hw->weights[i];
        if (hw->masked.empty()) any_masked = false;
        else
            for (size_t i = 0; i < n; ++i) masked[i] = masked[i] && hw->masked[i];
    }
    mean.weights.resize(n);
    for (size_t i = 0; i < n; ++i) mean.weights[i] = static_cast<float>(sum[i] / static_cast<double>(heads.size()));
    if (any_masked && std::find(masked.begin(), masked.end(), 1) != masked.end()) mean.masked = std::move(masked);
    return mean;
}

std::optional<OverviewThumb> mean_of_heads(const OverviewGrid& grid, const std::vector<HeadRef>& selected) {
    std::vector<const HeadWeights*> heads;
    for (const HeadRef& ref : selected) {
        const OverviewThumb* t = grid.find(ref);
        if (!t) continue;
        if (!heads.empty() && (t->weights.queries != heads.front()->queries || t->weights.keys != heads.front()->keys)) continue;
        heads.push_back(&t->weights);
    }
    if (heads.size() < 2) return std::nullopt;
    return make_thumb(HeadRef{-1, -1}, mean_weights(heads), nullptr);
}

std::optional<HeadWeights> mean_of_selected(const std::vector<HeadWeights>& heads, const std::vector<HeadRef>& selected, int layer) {
    std::vector<const HeadWeights*> chosen;
    for (const HeadWeights& hw : heads)
        if (hw.head >= 0 && std::find(selected.begin(), selected.end(), HeadRef{layer, hw.head}) != selected.end())
            chosen.push_back(&hw);
    if (chosen.size() < 2) return std::nullopt;
    HeadWeights mean = mean_weights(chosen);
    mean.head = -1;
    return mean;
}

// ---- Geometry ----

namespace {

struct GridShape {
    int columns = 0, rows = 0;
    float side = 0;
};

// The thumbnail side for `columns` x `rows` cells, each with `extra_h` of text.
float side_for(const Rect& area, int columns, int rows, float extra_h, const OverviewStyle& style) {
    const float w = (area.w - style.gap * static_cast<float>(columns - 1)) / static_cast<float>(columns);
    const float h = (area.h - style.gap * static_cast<float>(rows - 1)) / static_cast<float>(rows) - extra_h;
    return std::min({w, h, style.max_side});
}

GridShape arrange(int layers, int heads, bool with_mean, const Rect& area, float extra_h, const OverviewStyle& style) {
    GridShape best;
    if (layers > 1) {
        best.columns = heads;
        best.rows = layers + (with_mean ? 1 : 0);
        best.side = side_for(area, best.columns, best.rows, extra_h, style);
        return best;
    }
    const int n = heads + (with_mean ? 1 : 0);
    for (int columns = 1; columns <= n; ++columns) {
        const int rows = (n + columns - 1) / columns;
        const float side = side_for(area, columns, rows, extra_h, style);
        if (side > best.side + 0.5f) best = GridShape{columns, rows, side};
    }
    return best;
}

}  // namespace

OverviewLayout overview_layout(int layers, int heads, bool with_mean, const Rect& area, const OverviewStyle& style) {
    OverviewLayout out;
    out.area = area;
    if (layers <= 0 || heads <= 0 || area.w <= 0 || area.h <= 0) return out;
    // Richest labels first: every line at full size, then smaller type, then fewer lines,
    // then no title; the first that leaves a picture worth drawing (and labels as wide as
    // the shortest line needs) wins; failing all, the bare pictures.
    GridShape chosen;
    bool found = false;
    for (int lines = style.wanted_lines; lines >= -1 && !found; --lines) {
        const bool titles = lines >= 0;
        for (float font = style.font_px; font >= style.min_font_px - 0.01f && !found; font *= 0.9f) {
            const float line_h = std::ceil(font * 1.25f);
            const float extra_h = line_h * static_cast<float>(std::max(0, lines) + (titles ? 1 : 0));
            const GridShape a = arrange(layers, heads, with_mean, area, extra_h, style);
            const bool wide_enough = std::max(0, lines) + (titles ? 1 : 0) == 0 || a.side + style.gap * 0.8f >= font * 6.5f;
            if (a.side >= style.min_side && wide_enough && a.side >= extra_h) {
                chosen = a;
                found = true;
                out.font_px = font;
                out.line_h = line_h;
                out.label_lines = std::max(0, lines);
                out.titles = titles;
            }
        }
    }
    if (!found) {
        chosen = arrange(layers, heads, with_mean, area, 0.0f, style);
        out.font_px = style.min_font_px;
        out.line_h = 0;
        out.label_lines = 0;
        out.titles = false;
    }
    out.columns = chosen.columns;
    out.rows = chosen.rows;
    out.side = std::max(1.0f, std::floor(chosen.side));
    const float title_h = out.titles ? out.line_h : 0.0f, labels_h = out.line_h * static_cast<float>(out.label_lines);
    const float pitch_x = out.side + style.gap, pitch_y = title_h + out.side + labels_h + style.gap;
    // The whole grid centred in the area.
    const float grid_w = pitch_x * static_cast<float>(out.columns) - style.gap;
    const float grid_h = pitch_y * static_cast<float>(out.rows) - style.gap;
    const float x0 = area.x + std::max(0.0f, (area.w - grid_w) * 0.5f), y0 = area.y + std::max(0.0f, (area.h - grid_h) * 0.5f);
    const int n = layers * heads;
    const auto place = [&](int thumb, int row, int col) {
        OverviewCell cell;
        cell.thumb = thumb;
        const float x = x0 + pitch_x * static_cast<float>(col), y = y0 + pitch_y * static_cast<float>(row);
        cell.title = Rect{x, y, out.side, title_h};
        cell.picture = Rect{x, y + title_h, out.side, out.side};
        cell.labels = Rect{x, y + title_h + out.side, out.side, labels_h};
        out.cells.push_back(cell);
    };
    for (int i = 0; i < n; ++i) {
        if (layers > 1) place(i, i / heads, i % heads);
        else place(i, i / out.columns, i % out.columns);
    }
    if (with_mean) {
        if (layers > 1) place(-1, layers, 0);
        else place(-1, n / out.columns, n % out.columns);
    }
    return out;
}

int cell_at(const OverviewLayout& layout, float px, float py) {
    for (size_t i = 0; i < layout.cells.size(); ++i) {
        const OverviewCell& c = layout.cells[i];
        const Rect whole{c.title.x, c.title.y, c.picture.w, c.title.h + c.picture.h + c.labels.h};
        if (whole.contains(px, py)) return static_cast<int>(i);
    }
    return -1;
}

}  // namespace attn::gui
