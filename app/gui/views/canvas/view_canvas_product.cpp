// [SECTION] index
//   helpers        weight textures, index labels, numbers in W^T / b cells
//   draw_product   X, W^T, b, Y, titles, and what feeds the active cell
#include "app/gui/views/canvas/view_canvas_product.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "app/gui/display/animation.h"
#include "app/gui/display/format.h"
#include "app/gui/display/head_groups.h"
#include "app/gui/display/projection.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

// ------------------------------------------------------------ helpers
void draw_layer(const Painter& p, int step, int panel, HeatmapLayer layer, const Rect& r) {
    const HeatmapImage image = p.f->cache ? p.f->cache->image(step, panel, layer) : HeatmapImage{};
    const ImVec2 a(r.x, r.y), b(r.right(), r.bottom());
    if (image.texture) image.draw(*p.dl, a, b);
    else p.dl->AddRectFilled(a, b, p.pal.empty_cell);
    p.dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), p.pal.frame);
}

// Indices 0..count-1 down the left side of `r` (rows of W^T: the input features). With
// `head_dim` > 0 (W_o, whose input is the heads' concatenation) each block of head_dim
// rows gets its head's colour in a bar beside it: the rows that read head h's context.
void draw_index_rows(const Painter& p, const Rect& r, int count, float cell_h, int head_dim = 0) {
    if (head_dim > 0) {
        const float bar = std::max(3.0f, 4.0f * p.f->scale);
        for (int first = 0, h = 0; first < count; first += head_dim, ++h) {
            const float y0 = r.y + static_cast<float>(first) * cell_h;
            const float y1 = r.y + static_cast<float>(std::min(count, first + head_dim)) * cell_h;
            p.dl->AddRectFilled(ImVec2(r.x - bar - 2.0f, y0), ImVec2(r.x - 2.0f, y1), pack_rgba(step_head_color(p.f->trace->config, StepId::Concat, h)));
        }
    }
    const LabelFit fit = fit_stacked_labels(cell_h, p.small_size(), min_label_font(p), 1);
    ImFont* font = p.f->fonts.small ? p.f->fonts.small : ImGui::GetFont();
    for (int i = 0; i < count; i += nice_stride(fit.every)) {
        const std::string label = std::to_string(i);
        const ImVec2 size = font->CalcTextSizeA(fit.font_px, 1e9f, 0.0f, label.c_str());
        const float y = r.y + (static_cast<float>(i) + 0.5f) * cell_h - size.y * 0.5f;
        p.dl->AddText(font, fit.font_px, ImVec2(r.x - size.x - (head_dim > 0 ? 9.0f : 5.0f) * p.f->scale, y), p.pal.dim_text,
                      label.c_str());
    }
}

// Numbers in W^T (rows = input features) or b (one row) when the cells have room.
void draw_weight_values(const Painter& p, const ProjectionWeights& pw, int first_feature, const Rect& r, int rows,
                        int cols, float cell_w, float cell_h, bool bias) {
    if (!p.f->show_values) return;
    const float fh = p.small_size();
    if (cell_h < fh + 1.0f || static_cast<int64_t>(rows) * cols > kMaxCellsWithNumbers) return;
    const int max_chars = static_cast<int>((cell_w - 2.0f) / p.measure(p.f->fonts.small, "0").x);
    if (max_chars < 3) return;
    const float m = std::max(std::fabs(p.display(p.f->step).weight_vmin), 1e-6f);
    const auto value_at = [&](int i, int j) {
        return bias ? bias_at(pw, first_feature + j) : weight_at(pw, first_feature + j, i);
    };
    // One format for the whole block, or none.
    std::vector<float> values;
    values.reserve(static_cast<size_t>(rows) * static_cast<size_t>(cols));
    for (int i = 0; i < rows; ++i)
        for (int j = 0; j < cols; ++j) values.push_back(value_at(i, j));
    const int decimals = choose_cell_decimals(values.data(), values.size(), max_chars);
    if (decimals < 0) return;
    for (int i = 0; i < rows; ++i) {
        for (int j = 0; j < cols; ++j) {
            const float v = values[static_cast<size_t>(i) * static_cast<size_t>(cols) + static_cast<size_t>(j)];
            const Rgb c = sample_colormap(ColormapKind::Diverging, colormap_position(v, -m, m));
            const uint32_t color = luminance(c) > 0.45f ? IM_COL32(20, 20, 24, 255) : IM_COL32(250, 250, 250, 255);
            const std::string s = format_cell_fixed(v, decimals);
            if (s.empty()) continue;
            const ImVec2 size = p.measure(p.f->fonts.small, s);
            p.text(p.f->fonts.small,
                   ImVec2(r.x + (static_cast<float>(j) + 0.5f) * cell_w - size.x * 0.5f,
                          r.y + (static_cast<float>(i) + 0.5f) * cell_h - size.y * 0.5f),
                   color, s);
        }
    }
}

// Text right-aligned so that it ends at x.
void text_right(const Painter& p, ImFont* font, float x, float y, uint32_t color, const std::string& s) {
    p.text(font, ImVec2(x - p.measure(font, s).x, y), color, s);
}

// Where X's labels left room for the titles beside W^T: X's feature name, the right edge
// of the "+ b" label and its line.
struct InputLabels {
    std::string in_name;
    float bias_right = 0.0f;
    float bias_y = 0.0f;
};

// X: the source's panels side by side (one for the input, head groups for concat), and its title.
InputLabels draw_product_input(const Painter& p, const ProjectionWeights& pw, const ProductLayout& pl, int rows) {
    const StepDisplay& xs = p.display(pw.source_step);
    float x = pl.x.x;
    int first_col = 0;
    for (size_t k = 0; k < xs.panels.size(); ++k) {
        const Panel& xp = xs.panels[k];
        const Rect xr{x, pl.x.y, static_cast<float>(xp.cols) * pl.in_w, pl.x.h};
        draw_heatmap(p, pw.source_step, static_cast<int>(k), xr);
        draw_panel_frame(p, xs, static_cast<int>(k), xr, false, 1.0f);
        draw_col_labels(p, xs, xr, pl.in_w, first_col);
        draw_cell_values(p, pw.source_step, static_cast<int>(k), xr, pl.in_w, pl.row_h, 1 << 30, 0, 1.0f);
        x += xr.w;
        first_col += xp.cols;
    }
    draw_row_labels(p, xs, pl.x, pl.row_h);
    const Step& src = p.step(pw.source_step);
    const std::string in_name = src.tensor.dim_names().back();
    const float label_band = p.style.col_header + (xs.panels.front().head >= 0 ? p.style.header : 0.0f);
    // The title above X shares its height with the "+ b" label: shortened when they would meet.
    const float x_title_y = pl.x.y - label_band - p.small_size() - 2.0f * p.f->scale;
    float x_title_room = pl.w.front().x - pl.x.x;
    // "+ b" sits level with b, right-aligned left of W^T; when X's head labels are there
    // (concat before W_o) it moves up to X's title line instead of overprinting the last one.
    const float bias_right = pl.w.front().x - p.measure(p.f->fonts.small, std::to_string(pw.in)).x - 14.0f * p.f->scale;
    const float bias_left = bias_right - p.measure(p.f->fonts.small, "+ " + pw.b_name).x;
    float bias_y = 0.0f;
    if (!pl.b.empty()) {
        const Rect& br = pl.b.front();
        bias_y = br.y + br.h * 0.5f - p.small_size() * 0.5f;
        const bool over_x_labels = bias_y + p.small_size() > pl.x.y - label_band && bias_y < pl.x.y && pl.x.right() > bias_left;
        if (over_x_labels) bias_y = x_title_y;
        if (std::fabs(bias_y - x_title_y) < p.small_size() + 2.0f) x_title_room = bias_left - pl.x.x - 8.0f * p.f->scale;
    }
    for (const std::string& title : {"X = " + std::string(src.name()) + "  " + format_shape({rows, pw.in}, {xs.row_name, in_name}),
                                     "X = " + std::string(src.name()), std::string("X")}) {
        if (p.measure(p.f->fonts.small, title).x > x_title_room && title != "X") continue;
        p.text(p.f->fonts.small, ImVec2(pl.x.x, x_title_y), p.pal.text, title);
        break;
    }

    return {in_name, bias_right, bias_y};
}

// W^T and b above the result, cut into the result's column groups, with their titles.
void draw_product_weights(const Painter& p, const ProjectionWeights& pw, const ProductLayout& pl, const std::vector<int>& visible,
                          const Rect& area, const InputLabels& x_labels) {
    const int step = p.f->step;
    const StepDisplay& sd = p.display(step);
    const int head_dim = std::max(1, p.f->model->head_dim);
    const std::string& in_name = x_labels.in_name;
    const float bias_right = x_labels.bias_right, bias_y = x_labels.bias_y;
    const Step& st = p.step(step);
    const std::string out_name = st.tensor.dim_names().back();
    for (size_t k = 0; k < visible.size(); ++k) {
        const int panel = visible[k];
        const Panel& pn = sd.panels[static_cast<size_t>(panel)];
        const int f0 = panel_first_feature(sd, pn, head_dim);
        const Rect& wr = pl.w[k];
        draw_layer(p, step, panel, HeatmapLayer::WeightT, wr);
        draw_panel_frame(p, sd, panel, wr, false, 1.0f);
        draw_col_labels(p, sd, wr, pl.out_w, sd.joined ? static_cast<int>(k) * pn.cols : 0);
        draw_weight_values(p, pw, f0, wr, pw.in, pn.cols, pl.out_w, pl.in_h, false);
        if (!pl.b.empty()) {
            draw_layer(p, step, panel, HeatmapLayer::Bias, pl.b[k]);
            draw_weight_values(p, pw, f0, pl.b[k], 1, pn.cols, pl.out_w, pl.b[k].h, true);
        }
    }
    // W_o's rows read the concatenated heads: colour them by head when there are several.
    const bool rows_by_head = pw.w_name == "W_o" && p.f->trace->config.H() > 1;
    draw_index_rows(p, pl.w.front(), pw.in, pl.in_h, rows_by_head ? head_dim : 0);
    // Titles in the empty corner left of W^T.
    const float title_x = bias_right;
    // Up to four lines centred on W^T; when W^T is short they spill upwards into the
    // empty corner, never down onto the bias label nor off the canvas: lines that do not
    // fit are left out, the least needed (the colour range) first.
    const float bottom_limit = pl.b.empty() ? pl.w.front().bottom() : bias_y - 2.0f;
    const auto block = [&](int n) { return p.font_size() + static_cast<float>(n - 1) * (p.small_size() + 4.0f) + 2.0f; };
    int lines = 4;
    while (lines > 1 && block(lines) > bottom_limit - area.y) --lines;
    const float block_h = block(lines);
    const float wy = std::max(area.y, std::min(pl.w.front().y + (pl.w.front().h - block_h) * 0.5f, bottom_limit - block_h));
    const float room_w = title_x - area.x;
    const auto put = [&](int line, ImFont* font, uint32_t color, const std::string& text) {
        if (line >= lines || p.measure(font, text).x > room_w) return;
        const float y = line == 0 ? wy : wy + p.font_size() + 2.0f + static_cast<float>(line - 1) * (p.small_size() + 4.0f);
        text_right(p, font, title_x, y, color, text);
    };
    put(0, p.f->fonts.regular, p.pal.text, pw.w_name + "^T");
    const std::string w_shape = sd.arrangement == Arrangement::Grid
                                    ? text::trf("canvas.product.per_head", {{"shape", format_shape({pw.in, head_dim}, {in_name, "d_h"})}})
                                    : format_shape({pw.in, pw.out}, {in_name, out_name});
    put(1, p.f->fonts.small, p.pal.dim_text, w_shape);
    // What the picture computes, and W's own colour range (the legend is Y's).
    const std::string y_title = std::string(st.name()) + " = X " + pw.w_name + "^T" + (pw.has_bias() ? " + " + pw.b_name : "");
    put(2, p.f->fonts.small, p.pal.text, y_title);
    put(3, p.f->fonts.small, p.pal.dim_text,
        text::trf("canvas.product.colours", {{"min", format_value(sd.weight_vmin)}, {"max", format_value(sd.weight_vmax)}}));

    if (!pl.b.empty()) text_right(p, p.f->fonts.small, bias_right, bias_y, p.pal.text, "+ " + pw.b_name);
}

// Y: fills in reading order (each cell is one row of X times one column of W^T).
void draw_product_result(const Painter& p, const CanvasUi& ui, const ProductLayout& pl, ResultDrawn& r) {
    const int step = p.f->step;
    const StepDisplay& sd = p.display(step);
    const Step& st = p.step(step);
    const StepMotion motion = motion_for(st.kind);
    const float progress = p.f->progress;
    for (size_t k = 0; k < r.visible.size(); ++k) {
        const int panel = r.visible[k];
        const PanelPlace& place = pl.y[k];
        int stop_row = 1 << 30, stop_col = 0;
        if (progress < 1.0f && motion.fill == StepMotion::Fill::Raster) {
            const RasterStop stop = draw_raster_panel(p, ui, sd, panel, place, progress, r.active);
            stop_row = stop.row;
            stop_col = stop.col;
        } else {
            draw_heatmap(p, step, panel, place.rect);
        }
        const int head = sd.panels[static_cast<size_t>(panel)].head;
        const uint32_t frame = head >= 0 && !sd.joined ? pack_rgba(step_head_color(p.f->trace->config, p.step(step).id, head)) : p.pal.frame;
        p.dl->AddRect(ImVec2(place.rect.x - 1, place.rect.y - 1), ImVec2(place.rect.right() + 1, place.rect.bottom() + 1), frame);
        draw_cell_values(p, step, panel, place.rect, place.cell_w, place.cell_h, stop_row, stop_col, 1.0f);
    }
}

// What makes the active cell (i, o): row i of X, column o of W^T, b[o], outlined.
void outline_active_product(const Painter& p, const CanvasUi& ui, const ProductLayout& pl, const ResultDrawn& r) {
    const int step = p.f->step;
    const float progress = p.f->progress;
    CellRef active = r.active;
    const CellRef focus = ui.hovered.valid() ? ui.hovered : ui.pinned;
    if (!active.valid() && focus.valid() && focus.part == CellRef::Part::Result && focus.step == step && progress >= 1.0f)
        active = focus;
    const auto it = std::find(r.visible.begin(), r.visible.end(), active.panel);
    if (active.valid() && it != r.visible.end()) {
        const size_t k = static_cast<size_t>(it - r.visible.begin());
        const float col_x = pl.w[k].x + static_cast<float>(active.col) * pl.out_w;
        outline_rect(p, Rect{pl.x.x, pl.x.y + static_cast<float>(active.row) * pl.row_h, pl.x.w, pl.row_h}, 2.0f);
        outline_rect(p, Rect{col_x, pl.w[k].y, pl.out_w, pl.w[k].h}, 2.0f);
        if (!pl.b.empty()) outline_rect(p, Rect{col_x, pl.b[k].y, pl.out_w, pl.b[k].h}, 2.0f);
    }
}

}  // namespace

// ------------------------------------------------------------ draw_product
bool draw_product(const Painter& p, const CanvasUi& ui, const Rect& area, ResultDrawn& out) {
    const int step = p.f->step;
    const StepDisplay& sd = p.display(step);
    if (sd.panels.empty() || sd.weight_panels.size() != sd.panels.size()) return false;
    const ProjectionWeights pw = projection_weights(*p.f->trace, step);
    if (!pw.valid()) return false;

    ResultDrawn r;
    r.visible = visible_panels(sd, ui);
    r.sizes = panel_sizes(sd, r.visible);
    std::vector<int> group_cols;
    for (const auto& s : r.sizes) group_cols.push_back(s.second);
    const int rows = r.sizes.front().first;
    const ProductLayout pl = layout_product(rows, pw.in, group_cols, sd.joined ? 0.0f : p.style.group_gap,
                                            pw.has_bias(), area, p.style);
    if (!pl.ok || pl.y.size() != r.visible.size()) return false;
    r.layout.panels = pl.y;
    r.operands.push_back({CellRef::Part::Input, r.visible.front(), pl.x, rows, pw.in});
    for (size_t k = 0; k < r.visible.size(); ++k) {
        r.operands.push_back({CellRef::Part::Weight, r.visible[k], pl.w[k], pw.in, group_cols[k]});
        if (k < pl.b.size()) r.operands.push_back({CellRef::Part::Bias, r.visible[k], pl.b[k], 1, group_cols[k]});
    }
    r.layout.bounds = area;

    const InputLabels x_labels = draw_product_input(p, pw, pl, rows);
    draw_product_weights(p, pw, pl, r.visible, area, x_labels);
    draw_product_result(p, ui, pl, r);
    outline_active_product(p, ui, pl, r);
    out = std::move(r);
    return true;
}

}  // namespace attn::gui
