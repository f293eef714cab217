// The current step in motion (morphing layouts, raster fill, row-by-row, fades) and
// the column of source tensors with the rows/cells that feed the active cell lit.
#include <algorithm>
#include <cmath>
#include <vector>

#include "app/gui/display/animation.h"
#include "app/gui/display/format.h"
#include "app/gui/display/head_groups.h"
#include "app/gui/views/canvas/view_canvas_anim.h"
#include "app/gui/views/canvas/view_canvas_follow.h"
#include "app/gui/views/canvas/view_canvas_notes.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

// Which panel of the source step each result panel morphs from (-1 = none).
std::vector<int> morph_sources(const Painter& p, const StepDisplay& sd, const StepDisplay& from) {
    const size_t n = sd.panels.size(), m = from.panels.size();
    std::vector<int> out(n, -1);
    if (m == n) {
        for (size_t i = 0; i < n; ++i) out[i] = static_cast<int>(i);
    } else if (n > 0 && m > n && m % n == 0 && !from.strip.strides.empty()) {
        // (n == 0 while the step on screen is still being built: nothing morphs yet.)
        // A slice of a fused tensor: find which block of column groups it starts at.
        const int64_t row_len = from.strip.strides.size() >= 2 ? from.strip.strides[from.strip.strides.size() - 2] : 0;
        const int64_t delta = sd.strip.offset - from.strip.offset;
        const int64_t col = row_len > 0 ? delta % row_len : 0;
        const int head_dim = std::max(1, p.f->model->head_dim);
        const int first = static_cast<int>(std::clamp<int64_t>(col / head_dim, 0, static_cast<int64_t>(m - n)));
        for (size_t i = 0; i < n; ++i) out[i] = first + static_cast<int>(i);
    }
    return out;
}

// Labels and frames around one drawn panel.
void decorate(const Painter& p, const StepDisplay& sd, int panel, const PanelPlace& place, int k, int grid_cols,
              bool grid, float alpha) {
    draw_panel_frame(p, sd, panel, place.rect, grid, alpha);
    // The first panel of each grid row or band of column groups carries the row labels.
    const bool first_in_row = grid || grid_cols > 1 ? (k % std::max(1, grid_cols) == 0) : (k == 0);
    if (first_in_row) draw_row_labels(p, sd, place.rect, place.cell_h);
    const int first_col = sd.joined ? k * sd.panels[static_cast<size_t>(panel)].cols : 0;
    draw_col_labels(p, sd, place.rect, place.cell_w, first_col);
}

}  // namespace

RasterStop draw_raster_panel(const Painter& p, const CanvasUi& ui, const StepDisplay& sd, int panel,
                             const PanelPlace& place, float progress, CellRef& active) {
    const Rect& r = place.rect;
    const Panel& pn = sd.panels[static_cast<size_t>(panel)];
    // A plain matrix drawn as joined head groups fills as one matrix, left to right.
    const int group_cols = sd.joined ? pn.cols * static_cast<int>(sd.panels.size()) : pn.cols;
    const int first_col = sd.joined ? pn.cols * panel : 0;
    RasterState rs = raster_state(progress, pn.rows, group_cols);
    const bool cursor_here = rs.partial_cols >= first_col && rs.partial_cols < first_col + pn.cols;
    rs.partial_cols = std::clamp(rs.partial_cols - first_col, 0, pn.cols);
    p.dl->AddRectFilled(ImVec2(r.x, r.y), ImVec2(r.right(), r.bottom()), p.pal.empty_cell);
    const float rows = static_cast<float>(pn.rows), cols = static_cast<float>(pn.cols);
    draw_heatmap(p, sd.step, panel, r, 1.0f, 0.0f, static_cast<float>(rs.full_rows) / rows);
    if (rs.full_rows < pn.rows && rs.partial_cols > 0) {
        draw_heatmap(p, sd.step, panel, r, 1.0f, static_cast<float>(rs.full_rows) / rows,
                     static_cast<float>(rs.full_rows + 1) / rows, 0.0f, static_cast<float>(rs.partial_cols) / cols);
    }
    if (rs.full_rows < pn.rows && (cursor_here || !sd.joined)) {
        const Rect cell = cell_rect(r, place.cell_w, place.cell_h, rs.full_rows, rs.partial_cols);
        outline_rect(p, cell, 2.0f);
        if (!active.valid() && (sd.joined || pn.head == ui.chosen_head() || pn.head < 0)) {
            active = CellRef{sd.step, panel, rs.full_rows, rs.partial_cols};
        }
    }
    return RasterStop{rs.full_rows, rs.partial_cols};
}

namespace {

// Views, transposes, slices and concatenation: the source's panels travel to their new
// places. False when this step's panels do not all come from the source's.
bool draw_travelling_panels(const Painter& p, const StepDisplay& from, const Rect& area, ResultDrawn& out) {
    const int step = p.f->step;
    const StepDisplay& sd = p.display(step);
    const bool grid = shown_arrangement(sd, out.visible) == Arrangement::Grid;
    const float t = ease(p.f->progress);
    const std::vector<int> src = morph_sources(p, sd, from);
    if (std::all_of(src.begin(), src.end(), [](int i) { return i >= 0; })) {
        std::vector<int> all_from(from.panels.size());
        for (size_t i = 0; i < all_from.size(); ++i) all_from[i] = static_cast<int>(i);
        const StepLayout before = layout_step(from.arrangement, from.joined, panel_sizes(from, all_from), area, p.style);
        if (before.panels.size() != from.panels.size()) return true;
        // Panels of the source that are not part of this step (the rest of a fused QKV) fade away.
        for (size_t j = 0; j < from.panels.size(); ++j) {
            if (std::find(src.begin(), src.end(), static_cast<int>(j)) != src.end()) continue;
            draw_heatmap(p, sd.from_step, static_cast<int>(j), before.panels[j].rect, 1.0f - t);
        }
        for (size_t k = 0; k < out.visible.size(); ++k) {
            const int panel = out.visible[k];
            PanelPlace& place = out.layout.panels[k];
            place.rect = lerp_rect(before.panels[static_cast<size_t>(src[k])].rect, place.rect, t);
            place.cell_w = place.rect.w / static_cast<float>(out.sizes[k].second);
            place.cell_h = place.rect.h / static_cast<float>(out.sizes[k].first);
            draw_heatmap(p, step, panel, place.rect);
            decorate(p, sd, panel, place, static_cast<int>(k), out.layout.grid_cols, grid && t > 0.5f, 1.0f);
            draw_cell_values(p, step, panel, place.rect, place.cell_w, place.cell_h, 1 << 30, 0, 1.0f);
        }
        return true;
    }
    return false;
}

// Everything else: the values appear in the final layout, raster by raster, row by row or
// fading in, as the step's motion says.
void draw_filling_panels(const Painter& p, CanvasUi& ui, const StepDisplay* from, ResultDrawn& out) {
    const int step = p.f->step;
    const StepDisplay& sd = p.display(step);
    const bool grid = shown_arrangement(sd, out.visible) == Arrangement::Grid;
    const StepMotion motion = motion_for(p.step(step).kind);
    const float progress = p.f->progress;
    const float t = ease(progress);
    const bool same_panels = from && from->panels.size() == sd.panels.size();
    for (size_t k = 0; k < out.visible.size(); ++k) {
        const int panel = out.visible[k];
        const PanelPlace& place = out.layout.panels[k];
        const Rect& r = place.rect;
        const Panel& pn = sd.panels[static_cast<size_t>(panel)];
        int stop_row = 1 << 30, stop_col = 0;
        float values_alpha = 1.0f;
        switch (progress >= 1.0f ? StepMotion::Fill::None : motion.fill) {
            case StepMotion::Fill::Raster: {
                const RasterStop stop = draw_raster_panel(p, ui, sd, panel, place, progress, out.active);
                stop_row = stop.row;
                stop_col = stop.col;
                break;
            }
            case StepMotion::Fill::Rows: {
                const float rows = static_cast<float>(pn.rows);
                const float x = progress * rows;
                const int done = std::min(pn.rows, static_cast<int>(x));
                if (same_panels) draw_heatmap(p, sd.from_step, panel, r);
                else p.dl->AddRectFilled(ImVec2(r.x, r.y), ImVec2(r.right(), r.bottom()), p.pal.empty_cell);
                draw_heatmap(p, step, panel, r, 1.0f, 0.0f, static_cast<float>(done) / rows);
                if (done < pn.rows) {
                    draw_heatmap(p, step, panel, r, x - static_cast<float>(done), static_cast<float>(done) / rows,
                                 static_cast<float>(done + 1) / rows);
                    const Rect row{r.x, r.y + place.cell_h * static_cast<float>(done), r.w, place.cell_h};
                    outline_rect(p, row, 2.0f);
                    if (!out.active.valid() && (pn.head == ui.chosen_head() || pn.head < 0)) {
                        out.active = CellRef{step, panel, done, 0};
                    }
                }
                stop_row = done;
                break;
            }
            case StepMotion::Fill::Fade:
                if (same_panels) draw_heatmap(p, sd.from_step, panel, r);
                else p.dl->AddRectFilled(ImVec2(r.x, r.y), ImVec2(r.right(), r.bottom()), p.pal.empty_cell);
                draw_heatmap(p, step, panel, r, t);
                values_alpha = t;
                break;
            case StepMotion::Fill::None:
                draw_heatmap(p, step, panel, r);
                break;
        }
        decorate(p, sd, panel, place, static_cast<int>(k), out.layout.grid_cols, grid, 1.0f);
        draw_cell_values(p, step, panel, r, place.cell_w, place.cell_h, stop_row, stop_col, values_alpha);
    }
}

// A source's title over its panels: its name, the head it gives, its shape, as many pieces
// a line as fit the column. Returns the title's height.
float draw_source_title(const Painter& p, int index, int source_head, bool per_head, const std::vector<int>& shown, const Rect& slot) {
    const StepDisplay& ssd = p.display(index);
    const StepId source_id = p.step(index).id;
    const Panel& first = ssd.panels[static_cast<size_t>(shown.front())];
    std::vector<std::string> pieces{p.step(index).name()};
    if (per_head) pieces.push_back("· " + step_head_label(p.f->trace->config, source_id, source_head, false));
    pieces.push_back(format_shape({first.rows, per_head ? first.cols : static_cast<int64_t>(first.cols * shown.size())},
                                  {ssd.row_name, ssd.col_name}));
    // As many pieces per line as fit the column (never across the result beside it).
    std::vector<std::string> lines;
    for (const std::string& piece : pieces) {
        if (!lines.empty() && p.measure(p.f->fonts.small, lines.back() + " " + piece).x <= slot.w) lines.back() += " " + piece;
        else
            for (std::string& part : wrap_notes(p, {piece}, slot.w)) lines.push_back(std::move(part));  // a piece wider than the column wraps
    }
    const uint32_t title_color = per_head ? pack_rgba(with_contrast(step_head_color(p.f->trace->config, source_id, source_head), p.pal.background_rgb, 4.5f)) : p.pal.dim_text;
    // (The clip starts a little left of the text: a glyph's bearing may reach left of its pen.)
    p.dl->PushClipRect(ImVec2(slot.x - 2.0f, slot.y), ImVec2(slot.right(), slot.bottom()), true);
    for (size_t l = 0; l < lines.size(); ++l) {
        p.text(p.f->fonts.small, ImVec2(slot.x, slot.y + static_cast<float>(l) * (p.small_size() + 2.0f)), title_color, lines[l]);
    }
    p.dl->PopClipRect();
    return static_cast<float>(lines.size()) * (p.small_size() + 2.0f) + 2.0f * p.f->scale;
}

// What feeds the active cell (i, j) in source `si`: rows for products, the cell itself for
// element-wise steps.
void outline_feeding_cells(const Painter& p, StepKind kind, int si, const Panel& first, const StepLayout& lay, const CellRef& active) {
    const Rect& a = lay.panels.front().rect;
    const Rect& b = lay.panels.back().rect;
    const float cw = lay.panels.front().cell_w, ch = lay.panels.front().cell_h;
    const int i = active.row, j = active.col;
    auto row_rect = [&](int row) { return Rect{a.x, a.y + ch * static_cast<float>(row), b.right() - a.x, ch}; };
    if (kind == StepKind::Scores) {
        const int row = si == 0 ? i : j;
        if (row < first.rows) outline_rect(p, row_rect(row), 2.0f);
    } else if (kind == StepKind::WeightedSum) {
        if (si == 0 && i < first.rows) outline_rect(p, row_rect(i), 2.0f);
        if (si == 1 && j < first.cols) outline_rect(p, Rect{a.x + cw * static_cast<float>(j), a.y, cw, a.h}, 2.0f);
    } else if (kind == StepKind::Projection || kind == StepKind::Softmax) {
        if (i < first.rows) outline_rect(p, row_rect(i), 2.0f);
    } else if (i < first.rows && j < first.cols && lay.panels.size() == 1) {
        outline_rect(p, cell_rect(a, cw, ch, i, j), 2.0f);
    }
}

}  // namespace

ResultDrawn draw_result(const Painter& p, CanvasUi& ui, const Rect& area) {
    ResultDrawn out;
    const int step = p.f->step;
    const StepDisplay& sd = p.display(step);
    out.visible = visible_panels(sd, ui);
    out.sizes = panel_sizes(sd, out.visible);
    const Arrangement arrangement = shown_arrangement(sd, out.visible);
    out.layout = layout_step(arrangement, sd.joined, out.sizes, area, p.style);
    if (out.layout.panels.size() != out.visible.size()) {  // no room at all (tiny window)
        out.visible.clear();
        out.sizes.clear();
        out.layout.panels.clear();
        return out;
    }
    const StepMotion motion = motion_for(p.step(step).kind);
    const float progress = p.f->progress;
    const StepDisplay* from = sd.from_step >= 0 ? &p.display(sd.from_step) : nullptr;

    // ---- Views, transposes, slices, concatenation: the panels travel.
    if (motion.morph_layout && from && out.visible.size() == sd.panels.size() && progress < 1.0f &&
        draw_travelling_panels(p, *from, area, out))
        return out;

    // ---- Everything else: the values appear in the final layout.
    draw_filling_panels(p, ui, from, out);
    return out;
}

void draw_sources(const Painter& p, const CanvasUi& ui, const Rect& area, const CellRef& active) {
    const Step& step = p.step(p.f->step);
    const int n = static_cast<int>(step.sources.size());
    if (n == 0) return;
    const StepDisplay& sd = p.display(p.f->step);
    const int head = operand_head(ui, sd, active);
    const float slot_h = area.h / static_cast<float>(n);
    for (int si = 0; si < n; ++si) {
        const int index = p.f->trace->index_of(step.sources[static_cast<size_t>(si)]);
        if (index < 0) continue;
        const StepDisplay& ssd = p.display(index);
        std::vector<int> shown;
        const bool per_head = !ssd.joined && std::any_of(ssd.panels.begin(), ssd.panels.end(), [](const Panel& q) { return q.head >= 0; });
        // A key/value source of grouped-query attention holds H_kv heads: query head h
        // reads its group's one (head_groups.h).
        const StepId source_id = p.step(index).id;
        const HeadGroups groups = head_groups(p.f->trace->config);
        const bool reads_group = groups.grouped() && step_info(source_id).holds_kv_heads() && head >= 0;
        const int source_head = reads_group ? groups.group_of(head) : head;
        for (size_t i = 0; i < ssd.panels.size(); ++i) {
            if (!per_head || ssd.panels[i].head == source_head) shown.push_back(static_cast<int>(i));
        }
        if (shown.empty()) continue;
        const Rect slot{area.x, area.y + slot_h * static_cast<float>(si), area.w, slot_h - 8.0f * p.f->scale};
        const Panel& first = ssd.panels[static_cast<size_t>(shown.front())];
        const float title_h = draw_source_title(p, index, source_head, per_head, shown, slot);
        const Rect inner{slot.x, slot.y + title_h, slot.w, slot.h - title_h};
        // No room for the cells and their labels (three operands in a short column): the
        // title alone, rather than labels drawn over each other around a panel of no height.
        if (inner.h < p.style.header + p.style.col_header + 8.0f * p.f->scale) continue;
        const auto sizes = panel_sizes(ssd, shown);
        const Arrangement arr = shown.size() == 1 ? Arrangement::Single : ssd.arrangement;
        LayoutStyle style = p.style;
        style.max_cell = std::min(style.max_cell, 40.0f * p.f->scale);
        const StepLayout lay = layout_step(arr, ssd.joined, sizes, inner, style);
        if (lay.panels.size() != shown.size()) continue;
        for (size_t k = 0; k < shown.size(); ++k) {
            const PanelPlace& place = lay.panels[k];
            draw_heatmap(p, index, shown[k], place.rect);
            decorate(p, ssd, shown[k], place, static_cast<int>(k), 1, false, 1.0f);
            draw_cell_values(p, index, shown[k], place.rect, place.cell_w, place.cell_h, 1 << 30, 0, 1.0f);
        }
        outline_lineage(p, ui, index, shown, lay.panels);  // a followed cell's sources (view_canvas_follow.h)
        if (!active.valid() || lay.panels.empty()) continue;
        outline_feeding_cells(p, step.kind, si, first, lay, active);
    }
}

}  // namespace attn::gui
