// The canvas's axis labels: token or index labels along rows and columns, fitted to the
// cells (smaller type, shortened with a tooltip, turned upright, or every k-th).
#include "app/gui/views/canvas/canvas_painter.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <vector>

#include "app/gui/display/colormap.h"
#include "app/gui/display/format.h"
#include "app/gui/display/head_groups.h"
#include "app/gui/views/canvas/view_canvas_anim.h"
#include "app/gui/views/canvas/view_canvas_product.h"
#include "app/gui/views/canvas/view_storage.h"
#include "app/text/languages.h"
#include "core/masked_score.h"
#include "core/text_split.h"


namespace attn::gui {

// The font text of `size` pixels is drawn from: ImGui scales the glyphs of the font it
// has, so presentation's large numbers come from the large font's glyphs, which stay sharp.
static ImFont* font_for(const Painter& p, float size) {
    ImFont* small = p.f->fonts.small ? p.f->fonts.small : ImGui::GetFont();
    ImFont* large = p.f->fonts.large;
    return large && size > small->FontSize * 1.4f ? large : small;
}

// Text at any size; shared with the cells.
ImVec2 measure_at(const Painter& p, float size, const std::string& s) {
    return font_for(p, size)->CalcTextSizeA(size, FLT_MAX, 0.0f, s.c_str(), s.c_str() + s.size());
}

void text_at(const Painter& p, float size, ImVec2 pos, uint32_t color, const std::string& s) {
    p.dl->AddText(font_for(p, size), size, pos, color, s.c_str(), s.c_str() + s.size());
}

void text_standing(const Painter& p, float size, ImVec2 origin, uint32_t color, const std::string& s) {
    // Drawn flat from `origin` (inside the clip rectangle, so ImGui keeps the glyphs),
    // then each vertex turned about it: (dx, dy) -> (dy, -dx) stands the word up.
    const int first_vertex = p.dl->VtxBuffer.Size;
    text_at(p, size, origin, color, s);
    for (int v = first_vertex; v < p.dl->VtxBuffer.Size; ++v) {
        ImDrawVert& vert = p.dl->VtxBuffer[v];
        vert.pos = ImVec2(origin.x + (vert.pos.y - origin.y), origin.y - (vert.pos.x - origin.x));
    }
}

namespace {

std::string axis_label(const Painter& p, AxisLabels kind, int i) {
    const auto& tokens = kind == AxisLabels::QueryTokens ? p.f->model->query_tokens
                         : kind == AxisLabels::KeyTokens ? p.f->model->key_tokens
                                                         : p.f->model->vocabulary;
    if (kind != AxisLabels::Indices && i < static_cast<int>(tokens.size())) return p.f->model->shown_token(tokens[static_cast<size_t>(i)]);
    return std::to_string(i);
}

// A shortened label shows its full text when the mouse is on it.
void label_tooltip(const Painter& p, const Rect& r, const std::string& full, const std::string& shown) {
    if (!p.f->interactive || full == shown || !ImGui::IsWindowHovered()) return;
    const ImVec2 m = ImGui::GetMousePos();
    if (r.contains(m.x, m.y)) ImGui::SetTooltip("%s", full.c_str());
}

int longest_label(const Painter& p, AxisLabels kind, int first, int count) {
    if (kind == AxisLabels::Indices) return static_cast<int>(std::to_string(std::max(0, first + count - 1)).size());
    size_t n = 1;
    for (int i = first; i < first + count; ++i) n = std::max(n, utf8_length(axis_label(p, kind, i)));
    return static_cast<int>(n);
}

}  // namespace

float min_label_font(const Painter& p) { return std::max(8.0f, p.small_size() * 0.66f); }

void draw_row_labels(const Painter& p, const StepDisplay& sd, const Rect& r, float cell_h) {
    if (sd.panels.empty()) return;
    const int rows = sd.panels.front().rows;
    const float gutter = p.style.row_gutter - 6.0f * p.f->scale;
    const LabelFit fit = fit_stacked_labels(cell_h, p.small_size(), min_label_font(p), longest_label(p, sd.row_labels, 0, rows));
    const int every = sd.row_labels == AxisLabels::Indices ? nice_stride(fit.every) : fit.every;
    for (int i = 0; i < rows; i += every) {
        const std::string full = axis_label(p, sd.row_labels, i);
        std::string label = full;
        // Shorten to the gutter (the full text is in the tooltip).
        for (int chars = static_cast<int>(utf8_length(full)); chars > 1 && measure_at(p, fit.font_px, label).x > gutter; --chars) {
            label = clip_label(full, chars - 1);
        }
        const ImVec2 size = measure_at(p, fit.font_px, label);
        const float y = r.y + (static_cast<float>(i) + 0.5f) * cell_h - size.y * 0.5f;
        const ImVec2 at(r.x - size.x - 5.0f * p.f->scale, y);
        text_at(p, fit.font_px, at, sd.row_labels == AxisLabels::Indices ? p.pal.dim_text : p.pal.text, label);
        label_tooltip(p, Rect{at.x, r.y + static_cast<float>(i) * cell_h, size.x, cell_h}, full, label);
    }
}

// Column labels turned 90 degrees (reading upwards), one per column, above `r`; false
// (nothing drawn) when the columns are too narrow even for that (the caller then skips).
static bool draw_standing_col_labels(const Painter& p, const StepDisplay& sd, const Rect& r, float cell_w, int first_col, int cols) {
    const float font = std::min(p.small_size(), cell_w / 1.1f);
    if (font < 7.0f) return false;
    const float room = p.style.col_header - 2.0f;  // a standing label's length
    for (int j = 0; j < cols; ++j) {
        const std::string full = axis_label(p, sd.col_labels, first_col + j);
        std::string label = full;
        for (int chars = static_cast<int>(utf8_length(full)); chars > 1 && measure_at(p, font, label).x > room; --chars)
            label = clip_label(full, chars - 1);
        const ImVec2 size = measure_at(p, font, label);
        text_standing(p, font, ImVec2(r.x + (static_cast<float>(j) + 0.5f) * cell_w - size.y * 0.5f, r.y - 2.0f), p.pal.text, label);
        label_tooltip(p, Rect{r.x + static_cast<float>(j) * cell_w, r.y - size.x - 2.0f, cell_w, size.x}, full, label);
    }
    return true;
}

void draw_col_labels(const Painter& p, const StepDisplay& sd, const Rect& r, float cell_w, int first_col) {
    if (sd.panels.empty()) return;
    const int cols = static_cast<int>(std::lround(r.w / std::max(cell_w, 0.01f)));
    const bool tokens = sd.col_labels != AxisLabels::Indices;
    int longest = longest_label(p, sd.col_labels, first_col, cols);
    if (!tokens && sd.joined) {
        // Joined groups read as one matrix: one label width (and so one stride) for all.
        int total = 0;
        for (const Panel& pn : sd.panels) total += pn.cols;
        longest = std::max(longest, static_cast<int>(std::to_string(std::max(0, total - 1)).size()));
    }
    const float char_w = measure_at(p, 100.0f, "0123456789abcdefghijklmnopqrstuvwxyz").x / 3600.0f;
    // Tokens may be shortened down to their first letter ("sa~", "s": every key column keeps
    // a label, the full word is in the tooltip); indices keep every digit.
    // Indices: the digits' own width plus one digit of space between neighbours.
    const float digit_w = measure_at(p, 100.0f, "0123456789").x / 1000.0f;
    const LabelFit fit = tokens ? fit_side_labels(cell_w, p.small_size(), min_label_font(p), char_w * 1.1f, longest, 1)
                                : fit_side_labels(cell_w, p.small_size(), min_label_font(p), digit_w, longest + 1, longest + 1);
    // Key tokens too narrow for even one letter side by side stand on end instead, one per
    // column, as many letters as the header's height holds (the full word in the tooltip).
    if (tokens && fit.every > 1 && draw_standing_col_labels(p, sd, r, cell_w, first_col, cols)) return;
    // Indices keep one stride across joined groups (0 4 8 ... not 0 2 | 0 2).
    const int every = tokens || fit.every == 1 ? fit.every : nice_stride(fit.every);
    const int start = tokens ? 0 : (every - first_col % every) % every;
    float last_right = -FLT_MAX;
    for (int j = start; j < cols; j += every) {
        const std::string full = axis_label(p, sd.col_labels, first_col + j);
        std::string label = clip_label(full, fit.max_chars);
        const float room = cell_w * static_cast<float>(every) - 2.0f;
        for (int chars = fit.max_chars; tokens && chars > 1 && measure_at(p, fit.font_px, label).x > room; --chars) {
            label = clip_label(full, chars - 1);
        }
        const ImVec2 size = measure_at(p, fit.font_px, label);
        float x = r.x + (static_cast<float>(j) + 0.5f) * cell_w - size.x * 0.5f;
        if (every > 1) {
            // Kept over the panel (not onto a neighbour) and clear of the label before.
            x = std::max(r.x, std::min(x, r.right() - size.x));
            if (x < last_right) continue;
            last_right = x + size.x + 2.0f;
        }
        const ImVec2 at(x, r.y - size.y - 1.0f);
        text_at(p, fit.font_px, at, tokens ? p.pal.text : p.pal.dim_text, label);
        label_tooltip(p, Rect{r.x + static_cast<float>(j) * cell_w, at.y, cell_w, size.y}, full, label);
    }
}

// How the picture marks cell (row, col): -1 a masked score (hatched, whatever the fill),
// +1 a weight that is 0 because its key was masked (faintly hatched), 0 neither. The

}  // namespace attn::gui
