#include "app/gui/display/layout.h"

#include <algorithm>
#include <cmath>

namespace attn::gui {

Rect lerp_rect(const Rect& a, const Rect& b, float t) {
    return {a.x + (b.x - a.x) * t, a.y + (b.y - a.y) * t, a.w + (b.w - a.w) * t, a.h + (b.h - a.h) * t};
}

CellSize fit_cells(int rows, int cols, float w, float h, const LayoutStyle& style) {
    if (rows <= 0 || cols <= 0 || w <= 0 || h <= 0) return {};
    const float cw = w / static_cast<float>(cols);
    const float ch = h / static_cast<float>(rows);
    const float square = std::min({cw, ch, style.max_cell});
    CellSize cell{square, square};
    // Let the roomy axis grow up to a readable row height, never past its own space;
    // when even that height is out of reach (1024 rows), cells stay square.
    if (ch >= style.min_row && ch > square) cell.h = std::min({ch, std::max(square, style.min_row), style.max_cell});
    if (cw >= style.min_row && cw > square) cell.w = std::min({cw, std::max(square, style.min_row), style.max_cell});
    return cell;
}

namespace {

// How good a cell of this size is: its short side first (a 16 x 4.6 px cell reads as
// badly as a 4.6 px square), its area only between cells with the same short side.
bool better_cell(const CellSize& a, const CellSize& b) {
    const float short_a = std::min(a.w, a.h), short_b = std::min(b.w, b.h);
    if (short_a > short_b * 1.0001f) return true;
    if (short_b > short_a * 1.0001f) return false;
    return a.w * a.h > b.w * b.h * 1.0001f;
}

}  // namespace

int best_grid_columns(int count, int rows, int cols, float w, float h, const LayoutStyle& style) {
    const auto cell_for = [&](int gc) {
        const int gr = (count + gc - 1) / gc;
        const float slot_w = (w - style.gap * static_cast<float>(gc - 1)) / static_cast<float>(gc);
        const float slot_h = (h - style.gap * static_cast<float>(gr - 1)) / static_cast<float>(gr) -
                             style.header - style.col_header;
        return fit_cells(rows, cols, slot_w, slot_h, style);
    };
    int best = 1;
    CellSize best_cell = cell_for(1);
    for (int gc = 2; gc <= std::max(1, count); ++gc) {
        const CellSize c = cell_for(gc);
        if (better_cell(c, best_cell)) {
            best_cell = c;
            best = gc;
        }
    }
    if (cols >= rows) return best;  // square or wide maps (scores): biggest cells win
    const float enough = std::min(std::min(best_cell.w, best_cell.h), style.comfortable_cell);
    for (int gc = 1; gc < best; ++gc) {
        const CellSize c = cell_for(gc);
        if (std::min(c.w, c.h) >= enough) return gc;
    }
    return best;
}

namespace {

// Centres the laid-out panels horizontally inside `area`.
StepLayout centred(StepLayout layout, const Rect& area) {
    const float dx = std::max(0.0f, (area.w - layout.bounds.w) * 0.5f);
    layout.bounds.x += dx;
    for (PanelPlace& p : layout.panels) p.rect.x += dx;
    return layout;
}

StepLayout layout_left(Arrangement arrangement, bool joined, const std::vector<std::pair<int, int>>& sizes,
                       const Rect& area, const LayoutStyle& style);

// The rows and columns of cells of one band of `per_band` panels side by side (the widest band).
struct BandShape {
    int rows = 0, cols = 0;
};
BandShape band_shape(const std::vector<std::pair<int, int>>& sizes, int per_band) {
    BandShape shape;
    for (size_t start = 0; start < sizes.size(); start += static_cast<size_t>(per_band)) {
        int cols = 0;
        for (size_t i = start; i < sizes.size() && i < start + static_cast<size_t>(per_band); ++i) {
            cols += sizes[i].second;
            shape.rows = std::max(shape.rows, sizes[i].first);
        }
        shape.cols = std::max(shape.cols, cols);
    }
    return shape;
}

}  // namespace

int column_groups_per_band(Arrangement arrangement, bool joined, const std::vector<std::pair<int, int>>& sizes, float w,
                           float h, const LayoutStyle& style) {
    const int n = static_cast<int>(sizes.size());
    // A single matrix, or groups that read as one matrix (joined), stay in one band.
    if (arrangement != Arrangement::ColumnGroups || joined || n <= 1) return std::max(1, n);
    const auto cell_for = [&](int per_band) {
        const int bands = (n + per_band - 1) / per_band;
        const BandShape shape = band_shape(sizes, per_band);
        const float band_w = w - style.group_gap * static_cast<float>(per_band - 1);
        const float band_h = (h - style.gap * static_cast<float>(bands - 1)) / static_cast<float>(bands) - style.header - style.col_header;
        return fit_cells(shape.rows, shape.cols, band_w, band_h, style);
    };
    int best = n;
    CellSize best_cell = cell_for(n);
    for (int per_band = n - 1; per_band >= 1; --per_band) {
        const CellSize c = cell_for(per_band);
        if (better_cell(c, best_cell)) {
            best_cell = c;
            best = per_band;
        }
    }
    return best;
}

StepLayout layout_step(Arrangement arrangement, bool joined, const std::vector<std::pair<int, int>>& sizes,
                       const Rect& area, const LayoutStyle& style) {
    return centred(layout_left(arrangement, joined, sizes, area, style), area);
}

namespace {

StepLayout layout_left(Arrangement arrangement, bool joined, const std::vector<std::pair<int, int>>& sizes,
                       const Rect& area, const LayoutStyle& style) {
    StepLayout out;
    out.bounds = area;
    const int n = static_cast<int>(sizes.size());
    if (n == 0 || area.w <= 0 || area.h <= 0) return out;
    const float left = area.x + style.row_gutter;
    const float avail_w = std::max(1.0f, area.w - style.row_gutter);

    if (arrangement == Arrangement::Grid && n > 1) {
        const int rows = sizes[0].first, cols = sizes[0].second;
        const int gc = best_grid_columns(n, rows, cols, avail_w, area.h, style);
        const int gr = (n + gc - 1) / gc;
        const float slot_w = (avail_w - style.gap * static_cast<float>(gc - 1)) / static_cast<float>(gc);
        const float slot_h = (area.h - style.gap * static_cast<float>(gr - 1)) / static_cast<float>(gr);
        const CellSize c = fit_cells(rows, cols, slot_w, slot_h - style.header - style.col_header, style);
        const float pw = c.w * static_cast<float>(cols), ph = c.h * static_cast<float>(rows);
        out.grid_cols = gc;
        for (int i = 0; i < n; ++i) {
            const int gx = i % gc, gy = i / gc;
            PanelPlace p;
            p.cell_w = c.w;
            p.cell_h = c.h;
            p.rect = {left + static_cast<float>(gx) * (pw + style.gap),
                      area.y + static_cast<float>(gy) * (ph + style.header + style.col_header + style.gap) +
                          style.header + style.col_header,
                      pw, ph};
            out.panels.push_back(p);
        }
        out.bounds = {area.x, area.y, style.row_gutter + static_cast<float>(gc) * (pw + style.gap) - style.gap,
                      static_cast<float>(gr) * (ph + style.header + style.col_header + style.gap)};
        return out;
    }

    // Single and ColumnGroups: panels side by side sharing row labels, in as many bands
    // (rows of groups, each with its own labels) as gives the largest cells.
    const int per_band = column_groups_per_band(arrangement, joined, sizes, avail_w, area.h, style);
    const float gap = (arrangement == Arrangement::ColumnGroups && !joined) ? style.group_gap : 0.0f;
    const float band_gap = style.gap;
    const int bands = (n + per_band - 1) / per_band;
    const BandShape shape = band_shape(sizes, per_band);
    const float band_h = (area.h - band_gap * static_cast<float>(bands - 1)) / static_cast<float>(bands);
    const CellSize c = fit_cells(shape.rows, shape.cols, std::max(1.0f, avail_w - gap * static_cast<float>(per_band - 1)),
                                 band_h - style.header - style.col_header, style);
    out.grid_cols = per_band;
    float right = left;
    const float band_step = c.h * static_cast<float>(shape.rows) + style.header + style.col_header + band_gap;
    for (int i = 0; i < n; ++i) {
        const int band = i / per_band;
        if (i % per_band == 0) right = left;
        const auto& s = sizes[static_cast<size_t>(i)];
        PanelPlace p;
        p.cell_w = c.w;
        p.cell_h = c.h;
        p.rect = {right, area.y + static_cast<float>(band) * band_step + style.header + style.col_header,
                  c.w * static_cast<float>(s.second), c.h * static_cast<float>(s.first)};
        right += p.rect.w + gap;
        out.panels.push_back(p);
    }
    float widest = 0.0f;
    for (const PanelPlace& p : out.panels) widest = std::max(widest, p.rect.right() - area.x);
    out.bounds = {area.x, area.y, widest, static_cast<float>(bands) * band_step - band_gap};
    return out;
}

}  // namespace

CellHit hit_test(const StepLayout& layout, const std::vector<std::pair<int, int>>& sizes, float px, float py) {
    for (size_t i = 0; i < layout.panels.size() && i < sizes.size(); ++i) {
        const Rect& r = layout.panels[i].rect;
        if (!r.contains(px, py)) continue;
        CellHit hit;
        hit.panel = static_cast<int>(i);
        const int rows = sizes[i].first, cols = sizes[i].second;
        hit.row = std::clamp(static_cast<int>((py - r.y) / r.h * static_cast<float>(rows)), 0, rows - 1);
        hit.col = std::clamp(static_cast<int>((px - r.x) / r.w * static_cast<float>(cols)), 0, cols - 1);
        return hit;
    }
    return {};
}

int bands_to_fold(const std::vector<float>& cell_after, float wanted) {
    if (cell_after.empty()) return 0;
    for (size_t k = 0; k < cell_after.size(); ++k)
        if (cell_after[k] >= wanted) return static_cast<int>(k);
    const float most = *std::max_element(cell_after.begin(), cell_after.end());
    for (size_t k = 0; k < cell_after.size(); ++k)
        if (cell_after[k] >= most * 0.9f) return static_cast<int>(k);
    return static_cast<int>(cell_after.size()) - 1;
}

CanvasSplit split_canvas(const Rect& canvas, int source_count, float gap, int result_panels, float result_wants_w) {
    CanvasSplit split;
    if (source_count <= 0) {
        split.result = canvas;
        return split;
    }
    // 30% up to 4 panels, then shrinking with the grid's side (16 heads: 15%).
    const float fraction = std::clamp(0.60f / std::sqrt(static_cast<float>(std::max(1, result_panels))), 0.15f, 0.30f);
    float sw = std::floor(canvas.w * fraction);
    // A width-bound result (an enlarged head beside its operands) takes width from them
    // rather than leaving the canvas's lower part empty.
    if (result_wants_w > 0.0f) sw = std::clamp(std::floor(canvas.w - gap - result_wants_w), std::floor(canvas.w * 0.15f), sw);
    split.sources = {canvas.x, canvas.y, sw, canvas.h};
    split.result = {canvas.x + sw + gap, canvas.y, std::max(0.0f, canvas.w - sw - gap), canvas.h};
    return split;
}

SidePanels side_panels(float display_w, float column_h, float font_size, float left_em, float right_em,
                       float explain_fraction) {
    SidePanels out;
    const float min_w = font_size * 10.0f;
    // Each side may take at most 30% of the window and both together half of it, so the
    // canvas keeps at least 50% (a 1024 px projector still gets a ~500 px canvas).
    const float max_w = std::max(min_w, display_w * 0.3f);
    const float budget = display_w * 0.5f;
    out.left = std::max(1.0f, left_em) * font_size;
    out.right = std::max(1.0f, right_em) * font_size;
    const bool shrunk = out.left + out.right > budget;
    if (shrunk) {
        // Shrink both in proportion to the sizes the user chose.
        const float k = budget / (out.left + out.right);
        out.left *= k;
        out.right *= k;
    }
    const float scaled_right = out.right;
    out.left = std::clamp(out.left, min_w, max_w);
    out.right = std::clamp(out.right, min_w, max_w);
    // Controls squeezed below 12 font heights are more clipped than usable (large UI
    // scale on a projector), and when even the minimums do not fit there is no choice:
    // the controls fold into a tab (they open over the canvas); the explanation and
    // inspector stay, they are what the lesson is read from.
    if (out.left + out.right > budget || (shrunk && out.left < font_size * 12.0f)) {
        out.left_collapsed = true;
        out.left = collapsed_tab_width(font_size);
        out.right = std::clamp(scaled_right, std::min(min_w, display_w * 0.4f), std::max(min_w, std::min(max_w, budget - out.left)));
    }
    const float min_h = std::min(column_h * 0.5f, font_size * 6.0f);
    out.explain_h = std::clamp(explain_fraction * column_h, min_h, std::max(min_h, column_h - min_h));
    return out;
}

float collapsed_tab_width(float font_size) { return std::ceil(font_size * 2.0f); }

CenterSplit split_center(const Rect& center, bool code_shown, float font_size, float bar) {
    CenterSplit out{center, Rect{}};
    if (!code_shown) return out;
    Rect& canvas = out.canvas;
    const float code_w = font_size * 35.0f;
    if (canvas.w * 0.55f >= code_w) {
        const float w = std::max(code_w, canvas.w * 0.46f);
        canvas.w -= w + bar;
        out.code = Rect{canvas.right() + bar, canvas.y, w, canvas.h};
    } else {
        const float code_h = std::floor(canvas.h * 0.45f);
        canvas.h -= code_h + bar;
        out.code = Rect{canvas.x, canvas.bottom() + bar, canvas.w, code_h};
    }
    return out;
}

SlideListSplit split_slide_list(const Rect& center, bool shown, float font_size, float bar) {
    SlideListSplit out{Rect{}, center};
    if (!shown) return out;
    const float w = std::floor(std::min(font_size * 13.0f, center.w * 0.25f));
    out.list = Rect{center.x, center.y, w, center.h};
    out.rest = Rect{center.x + w + bar, center.y, std::max(1.0f, center.w - w - bar), center.h};
    return out;
}

DockRects dock_rects(float display_w, float display_h, float top, float font_size, float bottom_h, float status_h,
                     float bar, float left_em, float right_em, float explain_fraction) {
    DockRects d;
    const float body_bottom = std::max(top + 1.0f, display_h - status_h);  // above the status line
    const float column_h = body_bottom - top;
    d.side = side_panels(display_w, column_h, font_size, left_em, right_em, explain_fraction);
    const float left_w = d.side.left, right_w = d.side.right;
    const float mid_x = left_w + bar;
    const float mid_w = std::max(1.0f, display_w - left_w - right_w - 2.0f * bar);
    const float right_x = mid_x + mid_w + bar;
    const float body_h = std::max(1.0f, column_h - bottom_h);
    d.center = Rect{mid_x, top, mid_w, body_h};
    d.bottom = Rect{mid_x, top + body_h, mid_w, bottom_h};
    d.above_bottom = Rect{mid_x, d.bottom.y - font_size * 0.5f, mid_w, 0.0f};  // a point to float above
    d.right_top = Rect{right_x, top, right_w, d.side.explain_h};
    const float inspector_y = top + d.side.explain_h + bar;
    d.right_bottom = Rect{right_x, inspector_y, right_w, body_bottom - inspector_y};
    d.status = Rect{0.0f, body_bottom, display_w, display_h - body_bottom};
    d.tab = Rect{0.0f, top, left_w, column_h};
    const float controls_w = d.side.left_collapsed ? std::min(font_size * 20.0f, display_w * 0.6f) : left_w;
    d.left = Rect{d.side.left_collapsed ? left_w : 0.0f, top, controls_w, column_h};
    return d;
}

Rect fit_window(int want_w, int want_h, const Rect& work_area) {
    if (work_area.w <= 0.0f || work_area.h <= 0.0f) {
        return {0, 0, static_cast<float>(want_w), static_cast<float>(want_h)};
    }
    const float w = std::min(static_cast<float>(std::max(want_w, 320)), work_area.w);
    const float h = std::min(static_cast<float>(std::max(want_h, 240)), work_area.h);
    // Centred in the work area (so taskbars and docks are not covered).
    return {std::floor(work_area.x + (work_area.w - w) * 0.5f), std::floor(work_area.y + (work_area.h - h) * 0.5f), w, h};
}

int nice_stride(int every) {
    int base = 1;
    while (base < 1000000000) {
        for (const int m : {1, 2, 5}) {
            if (m * base >= every) return m * base;
        }
        base *= 10;
    }
    return every;
}

LabelFit fit_stacked_labels(float cell, float font_px, float min_font_px, int longest_chars) {
    LabelFit fit;
    fit.max_chars = std::max(1, longest_chars);
    const float line = 1.05f;  // a label's height per font pixel, with a hair of space
    fit.font_px = std::min(font_px, cell / line);
    if (fit.font_px >= min_font_px) return fit;
    fit.font_px = std::min(font_px, min_font_px);
    fit.every = std::max(1, static_cast<int>(std::ceil(fit.font_px * line / std::max(cell, 0.01f) - 1e-4f)));
    return fit;
}

LabelFit fit_side_labels(float cell, float font_px, float min_font_px, float char_w, int longest_chars, int min_chars) {
    LabelFit fit;
    const int longest = std::max(1, longest_chars);
    const int shortest = std::clamp(min_chars, 1, longest);
    const float pad = 2.0f;  // between neighbouring labels
    const auto width = [&](float font, int chars) { return font * char_w * static_cast<float>(chars) + pad; };
    fit.font_px = font_px;
    fit.max_chars = longest;
    // 1) a smaller font, 2) fewer characters, 3) only then every k-th label.
    if (width(font_px, longest) > cell) {
        fit.font_px = std::max(std::min(font_px, min_font_px), (cell - pad) / (char_w * static_cast<float>(longest)));
    }
    if (width(fit.font_px, longest) > cell) {
        fit.font_px = std::min(font_px, min_font_px);
        const int chars = static_cast<int>(std::floor((cell - pad) / (fit.font_px * char_w)));
        fit.max_chars = std::clamp(chars, shortest, longest);
    }
    if (width(fit.font_px, fit.max_chars) > cell) {
        // Shortening did not make every label fit: skipping is unavoidable, and then
        // whole labels ("t12") say more than shortened ones ("t1~").
        fit.max_chars = longest;
        fit.every = std::max(1, static_cast<int>(std::ceil(width(fit.font_px, fit.max_chars) / std::max(cell, 0.01f))));
    }
    return fit;
}

std::vector<LegendTick> place_legend_ticks(const std::function<std::pair<std::string, std::string>(int)>& texts, bool zero,
                                           float x, float w, float gap, const std::function<float(const std::string&)>& width_of) {
    for (const int digits : {4, 3, 2}) {
        const auto [lo, hi] = texts(digits);
        const float lo_w = width_of(lo), hi_w = width_of(hi);
        if (x + lo_w + gap > x + w - hi_w) continue;  // the two ends would touch
        std::vector<LegendTick> ticks{{lo, x}, {hi, x + w - hi_w}};
        const float zero_w = width_of("0"), zero_x = x + (w - zero_w) * 0.5f;
        if (zero && zero_x >= x + lo_w + gap && zero_x + zero_w + gap <= x + w - hi_w) ticks.push_back({"0", zero_x});
        return ticks;
    }
    const std::string hi = texts(2).second;
    return {{hi, x + w - width_of(hi)}};
}

int step_tab_detail(const std::vector<std::vector<float>>& widths_by_level, int current, float spacing, float avail) {
    const int levels = static_cast<int>(widths_by_level.size());
    for (int level = 0; level < levels; ++level) {
        const std::vector<float>& w = widths_by_level[static_cast<size_t>(level)];
        float total = 0.0f;
        for (size_t i = 0; i < w.size(); ++i) {
            const bool full = static_cast<int>(i) == current && !widths_by_level.empty() && i < widths_by_level[0].size();
            total += (full ? widths_by_level[0][i] : w[i]) + (i ? spacing : 0.0f);
        }
        if (total <= avail) return level;
    }
    return std::max(0, levels - 1);
}

}  // namespace attn::gui
