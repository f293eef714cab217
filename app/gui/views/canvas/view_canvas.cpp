// [SECTION] index
//   Painter helpers      text, measure, visible panels
//   Heatmap pieces       image, frame, axis labels, cell values, legend
//   draw_canvas          header line, split, result, sources, legend, strip, mouse
#include "app/gui/views/canvas/view_canvas.h"
#include "app/gui/views/canvas/view_canvas_focus.h"
#include "app/gui/views/canvas/view_weight_lines.h"
#include "app/gui/views/canvas/view_canvas_notes.h"
#include "app/gui/views/canvas/view_canvas_rotation.h"

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
#include "core/text_split.h"

namespace attn::gui {

// ------------------------------------------------------------ Painter helpers
void Painter::text(ImFont* font, ImVec2 pos, uint32_t color, const std::string& s) const {
    ImFont* use = font ? font : ImGui::GetFont();
    dl->AddText(use, use->FontSize, pos, color, s.c_str(), s.c_str() + s.size());
}

ImVec2 Painter::measure(ImFont* font, const std::string& s) const {
    ImFont* use = font ? font : ImGui::GetFont();
    return use->CalcTextSizeA(use->FontSize, FLT_MAX, 0.0f, s.c_str(), s.c_str() + s.size());
}

std::vector<int> visible_panels(const StepDisplay& sd, const CanvasUi& ui) {
    std::vector<int> out;
    if (sd.arrangement == Arrangement::Grid && ui.enlarged_head >= 0) {
        for (size_t i = 0; i < sd.panels.size(); ++i) {
            if (sd.panels[i].head == ui.enlarged_head) return {static_cast<int>(i)};
        }
    }
    for (size_t i = 0; i < sd.panels.size(); ++i) out.push_back(static_cast<int>(i));
    return out;
}

std::vector<std::pair<int, int>> panel_sizes(const StepDisplay& sd, const std::vector<int>& visible) {
    std::vector<std::pair<int, int>> sizes;
    for (int i : visible) sizes.emplace_back(sd.panels[static_cast<size_t>(i)].rows, sd.panels[static_cast<size_t>(i)].cols);
    return sizes;
}

Arrangement shown_arrangement(const StepDisplay& sd, const std::vector<int>& visible) {
    if (sd.arrangement == Arrangement::Grid && visible.size() == 1) return Arrangement::Single;
    return sd.arrangement;
}

// ------------------------------------------------------------ Heatmap pieces
void draw_heatmap(const Painter& p, int step, int panel, const Rect& r, float alpha, float row0, float row1,
                  float col0, float col1) {
    if (r.w <= 0.0f || r.h <= 0.0f || alpha <= 0.0f) return;
    const HeatmapImage image = p.f->cache ? p.f->cache->image(step, panel) : HeatmapImage{};
    const ImVec2 a(r.x + r.w * col0, r.y + r.h * row0), b(r.x + r.w * col1, r.y + r.h * row1);
    if (!image.texture) {
        p.dl->AddRectFilled(a, b, p.pal.empty_cell);
        return;
    }
    const uint32_t tint = IM_COL32(255, 255, 255, static_cast<int>(std::clamp(alpha, 0.0f, 1.0f) * 255.0f));
    p.dl->AddImage(image.texture->imgui_id(), a, b, ImVec2(image.u(col0), image.v(row0)), ImVec2(image.u(col1), image.v(row1)),
                   tint);
}

void draw_panel_frame(const Painter& p, const StepDisplay& sd, int panel, const Rect& r, bool grid, float alpha) {
    const Panel& pn = sd.panels[static_cast<size_t>(panel)];
    if (pn.head < 0) {
        p.dl->AddRect(ImVec2(r.x - 1, r.y - 1), ImVec2(r.right() + 1, r.bottom() + 1), p.pal.frame);
        return;
    }
    // Grouped-query attention colours heads by the key/value head they share (head_groups.h).
    const StepId id = p.step(sd.step).id;
    const Rgb head_rgb = step_head_color(p.f->trace->config, id, pn.head);
    const uint32_t color = pack_rgba(head_rgb, alpha);
    const float bar = std::max(3.0f, 4.0f * p.f->scale);
    const float top = r.y - p.style.col_header;
    // A coloured bar on top of each head: the thread to follow through split, transpose and concat.
    p.dl->AddRectFilled(ImVec2(r.x, top - bar), ImVec2(r.right(), top), color);
    if (grid || !sd.joined) {
        // The head's colour between two dark lines: visible on any cell colour, also on
        // cells of the head's own hue (head 3's frame on yellow probabilities).
        const float w = std::max(1.0f, 1.5f * p.f->scale);
        const uint32_t edge = IM_COL32(0, 0, 0, static_cast<int>(200.0f * std::clamp(alpha, 0.0f, 1.0f)));
        const float out = 1.0f + w;
        p.dl->AddRect(ImVec2(r.x - out - 0.5f, r.y - out - 0.5f), ImVec2(r.right() + out + 0.5f, r.bottom() + out + 0.5f), edge);
        p.dl->AddRect(ImVec2(r.x - 1, r.y - 1), ImVec2(r.right() + 1, r.bottom() + 1), color, 0.0f, 0, w);
        p.dl->AddRect(ImVec2(r.x, r.y), ImVec2(r.right(), r.bottom()), edge);
    }
    // One label scheme per step: "head N" when the widest fits, else "hN", else "N",
    // else every k-th head (never labels running into each other).
    if (alpha <= 0.05f) return;
    const float room = r.w - 4.0f * p.f->scale;
    std::string label;
    if (!pn.label.empty()) {
        label = pn.label;
        if (p.measure(p.f->fonts.small, label).x > room) return;
    } else {
        int widest_head = 0;
        for (const Panel& other : sd.panels) widest_head = std::max(widest_head, other.head);
        const std::string widest = std::to_string(widest_head);
        int every = 1;
        // "head N", else the short "hN", else "N" on every few heads (words from the catalogue;
        // under grouped-query attention they also name the key/value head).
        const AttentionConfig& config = p.f->trace->config;
        const std::string full = step_head_label(config, id, widest_head, false), brief = step_head_label(config, id, widest_head, true);
        bool long_form = false, short_form = false;
        if (p.measure(p.f->fonts.small, full).x <= room) long_form = true;
        else if (p.measure(p.f->fonts.small, brief).x <= room) short_form = true;
        else every = std::max(1, static_cast<int>(std::ceil((p.measure(p.f->fonts.small, brief).x + 4.0f) / std::max(r.w, 1.0f))));
        if (every == 1 && !long_form && !short_form && p.measure(p.f->fonts.small, widest).x > room) return;
        if (pn.head % every != 0) return;
        label = long_form ? step_head_label(config, id, pn.head, false)
                          : (short_form || every > 1) ? step_head_label(config, id, pn.head, true) : std::to_string(pn.head);
    }
    const ImVec2 size = p.measure(p.f->fonts.small, label);
    // The bar keeps the head's own colour; its label is darkened (light theme) or
    // lightened just enough to read as text (WCAG AA against the canvas).
    const uint32_t text = pack_rgba(with_contrast(head_rgb, p.pal.background_rgb, 4.5f), alpha);
    p.text(p.f->fonts.small, ImVec2(r.x + (grid ? 0.0f : (r.w - size.x) * 0.5f), top - bar - size.y - 1), text, label);
}

namespace {

// A difference from float32 in at most 6 characters: "0", "2.9e-3", "1.2e+1"; masked cells as "-inf".
std::string format_difference(float v) {
    if (v == 0.0f) return "0";
    if (std::isinf(v)) return v < 0 ? "-inf" : "inf";
    char text[32];
    std::snprintf(text, sizeof text, "%.1e", static_cast<double>(v));
    std::string out = text;
    // "2.9e-03" -> "2.9e-3": C prints at least two exponent digits.
    const size_t e = out.find('e');
    if (e != std::string::npos && e + 2 < out.size() && out[e + 2] == '0') out.erase(e + 2, 1);
    return out;
}

std::string axis_label(const Painter& p, AxisLabels kind, int i) {
    const auto& tokens = kind == AxisLabels::QueryTokens ? p.f->model->query_tokens
                         : kind == AxisLabels::KeyTokens ? p.f->model->key_tokens
                                                         : p.f->model->vocabulary;
    if (kind != AxisLabels::Indices && i < static_cast<int>(tokens.size())) return tokens[static_cast<size_t>(i)];
    return std::to_string(i);
}

// Text at any size (ImGui scales the glyphs of the font it has).
ImVec2 measure_at(const Painter& p, float size, const std::string& s) {
    ImFont* font = p.f->fonts.small ? p.f->fonts.small : ImGui::GetFont();
    return font->CalcTextSizeA(size, FLT_MAX, 0.0f, s.c_str(), s.c_str() + s.size());
}

void text_at(const Painter& p, float size, ImVec2 pos, uint32_t color, const std::string& s) {
    ImFont* font = p.f->fonts.small ? p.f->fonts.small : ImGui::GetFont();
    p.dl->AddText(font, size, pos, color, s.c_str(), s.c_str() + s.size());
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

// Digits over hatching are hard to read (stripes cross them): masked cells get a plate
// of their plain colour behind the text, so "-inf" and "0.00" read in both themes.
void draw_hatched_cell_plate(const Painter& p, const Panel& pn, int row, int col, float v, const StepDisplay& sd,
                             ImVec2 center, ImVec2 text_size, float alpha) {
    const bool unpooled = pn.tex_rows == pn.rows && pn.tex_cols == pn.cols;
    if (!unpooled) return;
    const size_t index = static_cast<size_t>(row) * static_cast<size_t>(pn.cols) + static_cast<size_t>(col);
    if (index >= pn.values.size() || !std::isinf(pn.values[index])) return;
    const bool masked_score = std::isinf(v) && v < 0;
    const Rgb base = masked_score ? p.pal.masked : sample_colormap(sd.colormap, colormap_position(0.0f, sd.vmin, sd.vmax));
    const float pad = 2.0f * p.f->scale;
    p.dl->AddRectFilled(ImVec2(center.x - text_size.x * 0.5f - pad, center.y - text_size.y * 0.5f),
                        ImVec2(center.x + text_size.x * 0.5f + pad, center.y + text_size.y * 0.5f), pack_rgba(base, alpha * 0.92f),
                        2.0f * p.f->scale);
}

namespace {

// The decimals every panel of `step` is drawn with in `max_chars` characters: one rule for
// the whole step, so a head with a minus sign does not print less than its neighbours.
int step_decimals(const Painter& p, int step, int max_chars) {
    for (const auto& [key, decimals] : p.decimals_memo)
        if (key == std::make_pair(step, max_chars)) return decimals;
    const Tensor& t = p.step(step).tensor;
    std::vector<float> values;
    for (const Panel& pn : p.display(step).panels) {
        if (static_cast<int64_t>(pn.rows) * pn.cols > kMaxCellsWithNumbers) continue;
        for (int i = 0; i < pn.rows; ++i)
            for (int j = 0; j < pn.cols; ++j) values.push_back(cell_value(t, pn, i, j));
    }
    const int decimals = values.empty() ? -1 : choose_cell_decimals(values.data(), values.size(), max_chars);
    p.decimals_memo.emplace_back(std::make_pair(step, max_chars), decimals);
    return decimals;
}

}  // namespace

// The vocabulary's word for an id held as a float ("" when out of range).
static std::string vocabulary_word(const Painter& p, float id) {
    const std::vector<std::string>& vocabulary = p.f->model->vocabulary;
    const long index = std::lround(id);
    return index >= 0 && index < static_cast<long>(vocabulary.size()) ? vocabulary[static_cast<size_t>(index)] : "";
}

NumberFormat cell_number_format(const Painter& p, int step, float cell_w, float cell_h) {
    NumberFormat out;
    const StepDisplay& sd = p.display(step);
    if (sd.panels.empty()) return out;
    // Ids are whole numbers: "38", not "38.00". Differences from float32 are tiny: "2.9e-3"
    // says more than "0.00" (format_difference).
    out.difference = p.f->model->colour_scale.difference_from_float32;
    const bool whole = out.difference || sd.colormap == ColormapKind::Neutral;
    // Fewer decimals first, then smaller type (down to 60% of the labels' size), and only
    // then colours alone.
    const float largest = p.small_size(), smallest = std::max(8.0f, largest * 0.6f);
    for (float font = largest; font >= smallest - 0.01f; font -= std::max(1.0f, largest * 0.1f)) {
        if (cell_h < font + 1.0f) continue;
        // Digits are the widest characters; sign and point are narrower, so this never overflows.
        const int max_chars = static_cast<int>((cell_w - 2.0f) / measure_at(p, font, "0").x);
        if (max_chars < 3) continue;
        const int decimals = whole ? 0 : step_decimals(p, step, max_chars);
        if (decimals < 0) continue;
        out.decimals = decimals;
        out.max_chars = max_chars;
        out.font_px = font;
        return out;
    }
    return out;
}

void draw_cell_values(const Painter& p, int step, int panel, const Rect& r, float cell_w, float cell_h, int stop_row,
                      int stop_col, float alpha) {
    if (!p.f->show_values || alpha <= 0.05f) return;
    const StepDisplay& sd = p.display(step);
    const Panel& pn = sd.panels[static_cast<size_t>(panel)];
    if (static_cast<int64_t>(pn.rows) * pn.cols > kMaxCellsWithNumbers) return;
    const NumberFormat format = cell_number_format(p, step, cell_w, cell_h);
    if (format.decimals < 0) return;  // colours only: a cut number would be a wrong number
    const int max_chars = format.max_chars, decimals = format.decimals;
    const bool difference = format.difference;
    // A model's output sequence (sort, reverse) reads as its tokens, not as vocabulary ids;
    // the `tokens` step keeps its ids, which is what it teaches.
    const Step& shown = p.step(step);
    const bool words = step_info(shown.id).token_ids() && shown.kind == StepKind::Prediction && !p.f->model->vocabulary.empty();
    const Tensor& t = shown.tensor;
    std::vector<float> values(static_cast<size_t>(pn.rows) * static_cast<size_t>(pn.cols));
    for (int i = 0; i < pn.rows; ++i)
        for (int j = 0; j < pn.cols; ++j) values[static_cast<size_t>(i) * static_cast<size_t>(pn.cols) + static_cast<size_t>(j)] = cell_value(t, pn, i, j);
    const int a = static_cast<int>(alpha * 255.0f);
    for (int i = 0; i < pn.rows; ++i) {
        if (i > stop_row) break;
        for (int j = 0; j < pn.cols; ++j) {
            if (i == stop_row && j >= stop_col) break;
            const float v = values[static_cast<size_t>(i) * static_cast<size_t>(pn.cols) + static_cast<size_t>(j)];
            const std::string s = difference ? format_difference(v) : words ? vocabulary_word(p, v) : format_cell_fixed(v, decimals);
            if (s.empty() || static_cast<int>(s.size()) > max_chars) continue;
            const bool masked = std::isinf(v) && v < 0;
            const Rgb c = sample_colormap(sd.colormap, colormap_position(v, sd.vmin, sd.vmax));
            const bool dark_text = masked ? p.f->light : luminance(c) > 0.45f;
            const uint32_t color = dark_text ? IM_COL32(20, 20, 24, a) : IM_COL32(250, 250, 250, a);
            const ImVec2 size = measure_at(p, format.font_px, s);
            draw_hatched_cell_plate(p, pn, i, j, v, sd, ImVec2(r.x + (static_cast<float>(j) + 0.5f) * cell_w,
                                                           r.y + (static_cast<float>(i) + 0.5f) * cell_h), size, alpha);
            text_at(p, format.font_px,
                    ImVec2(r.x + (static_cast<float>(j) + 0.5f) * cell_w - size.x * 0.5f,
                           r.y + (static_cast<float>(i) + 0.5f) * cell_h - size.y * 0.5f),
                    color, s);
        }
    }
}

Rect cell_rect(const Rect& panel, float cell_w, float cell_h, int row, int col) {
    return {panel.x + static_cast<float>(col) * cell_w, panel.y + static_cast<float>(row) * cell_h, cell_w, cell_h};
}

void outline_rect(const Painter& p, const Rect& r, float thickness) {
    const float t = thickness * p.f->scale;
    p.dl->AddRectFilled(ImVec2(r.x, r.y), ImVec2(r.right(), r.bottom()), p.pal.highlight_fill);
    // Dark outside, bright inside: visible on light and dark cells alike.
    p.dl->AddRect(ImVec2(r.x - t, r.y - t), ImVec2(r.right() + t, r.bottom() + t), IM_COL32(0, 0, 0, 230), 0.0f, 0, t);
    p.dl->AddRect(ImVec2(r.x, r.y), ImVec2(r.right(), r.bottom()), p.pal.highlight, 0.0f, 0, t);
}

void draw_legend(const Painter& p, const StepDisplay& sd, const Rect& r) {
    if (sd.colormap == ColormapKind::Neutral) {  // ids: a scale would suggest amounts
        const std::string caption = text::tr("canvas.legend.ids");
        const float right = r.right() - p.measure(p.f->fonts.small, caption).x;
        p.text(p.f->fonts.small, ImVec2(std::min(r.x, right), r.y - p.small_size() - 2.0f), p.pal.dim_text, caption);
        return;
    }
    const int segments = 32;
    const float w = r.w / static_cast<float>(segments);
    for (int i = 0; i < segments; ++i) {
        const Rgb a = sample_colormap(sd.colormap, static_cast<float>(i) / segments);
        const Rgb b = sample_colormap(sd.colormap, static_cast<float>(i + 1) / segments);
        const uint32_t ca = pack_rgba(a), cb = pack_rgba(b);
        p.dl->AddRectFilledMultiColor(ImVec2(r.x + w * static_cast<float>(i), r.y),
                                      ImVec2(r.x + w * static_cast<float>(i + 1), r.y + r.h), ca, cb, cb, ca);
    }
    p.dl->AddRect(ImVec2(r.x - 1, r.y - 1), ImVec2(r.right() + 1, r.bottom() + 1), p.pal.frame);
    const float ty = r.bottom() + 2.0f;
    const std::string lo = format_value(sd.vmin), hi = format_value(sd.vmax);
    p.text(p.f->fonts.small, ImVec2(r.x, ty), p.pal.dim_text, lo);
    p.text(p.f->fonts.small, ImVec2(r.right() - p.measure(p.f->fonts.small, hi).x, ty), p.pal.dim_text, hi);
    if (sd.colormap == ColormapKind::Diverging) {
        const float zx = r.x + r.w * 0.5f;
        p.dl->AddLine(ImVec2(zx, r.y), ImVec2(zx, r.bottom()), p.pal.frame);
        p.text(p.f->fonts.small, ImVec2(zx - p.measure(p.f->fonts.small, "0").x * 0.5f, ty), p.pal.dim_text, "0");
    }
    std::string title = text::tr(sd.colormap == ColormapKind::Sequential ? "canvas.legend.probability" : "canvas.legend.value");
    if (p.f->model->colour_scale.difference_from_float32) title = text::trf("canvas.legend.difference", {{"max", hi}});
    else if (sd.stretched) title += text::trf("canvas.legend.stretched", {{"top", hi}});
    else if (p.f->model->colour_scale.one_scale_across_steps) title += text::tr("canvas.legend.one_scale");
    p.text(p.f->fonts.small, ImVec2(r.x, r.y - p.small_size() - 2.0f), p.pal.dim_text, title);
    if (sd.masked_cells > 0 || sd.masked_zero_cells > 0) {
        // The same hatching the shader draws: masked is neither a value nor "not computed yet".
        const bool scores = sd.masked_cells > 0;
        const std::string label = text::tr(scores ? "canvas.legend.masked" : "canvas.legend.masked_key");
        const float sx = r.x - p.measure(p.f->fonts.small, label).x - r.h * 2.0f - 18.0f * p.f->scale;
        const float side = r.h * 1.6f;
        const Rect sw{sx, r.y - (side - r.h) * 0.5f, side, side};
        const ImVec2 a(sw.x, sw.y), b(sw.right(), sw.bottom());
        const Rgb zero = sample_colormap(sd.colormap, colormap_position(0.0f, sd.vmin, sd.vmax));
        p.dl->AddRectFilled(a, b, scores ? pack_rgba(p.pal.masked) : pack_rgba(zero));
        const Rgb hatch{std::min(1.0f, p.pal.masked.r + 0.3f), std::min(1.0f, p.pal.masked.g + 0.3f),
                        std::min(1.0f, p.pal.masked.b + 0.3f)};
        p.dl->PushClipRect(a, b, true);
        for (float d = -side; d < side; d += side / 3.0f) {
            p.dl->AddLine(ImVec2(sw.x + d, sw.bottom()), ImVec2(sw.x + d + side, sw.y), pack_rgba(hatch, scores ? 1.0f : 0.6f),
                          std::max(1.0f, 1.5f * p.f->scale));
        }
        p.dl->PopClipRect();
        p.dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), p.pal.frame);
        p.text(p.f->fonts.small, ImVec2(sw.right() + 5.0f * p.f->scale, r.y + r.h * 0.5f - p.small_size() * 0.5f),
               p.pal.dim_text, label);
    }
}

// ------------------------------------------------------------ draw_canvas
std::string canvas_caption(const CanvasFrame& frame, const CanvasUi& ui) {
    const Step& step = frame.trace->steps[static_cast<size_t>(frame.step)];
    const StepDisplay& sd = frame.model->steps[static_cast<size_t>(frame.step)];
    std::string caption = std::string(step.name()) + "   " + step.tensor.shape_string();
    if (frame.trace->config.batch > 1) caption += "   " + text::trf("canvas.caption.item", {{"item", frame.model->batch_item}});
    if (sd.arrangement == Arrangement::Grid && ui.enlarged_head >= 0)
        caption += "   " + text::trf("canvas.caption.enlarged", {{"head", ui.enlarged_head}});
    return caption;
}

namespace {

// The result and its sources side by side (the sources only when asked and there is room).
CanvasSplit split_result(const Painter& p, const CanvasUi& ui, const Rect& body, bool sources) {
    const Step& step = p.step(p.f->step);
    const StepDisplay& sd = p.display(p.f->step);
    const int source_count = sources && motion_for(step.kind).show_sources ? static_cast<int>(step.sources.size()) : 0;
    const int result_panels = sd.arrangement == Arrangement::Grid && ui.enlarged_head < 0 ? static_cast<int>(sd.panels.size()) : 1;
    return split_canvas(body, body.w > 380.0f * p.f->scale ? source_count : 0, 24.0f * p.f->scale, result_panels);
}

// The bands around the picture when the first `folded` of them (in kFoldOrder) fold away.
enum class Band { Strip, Paint, Focus, Rotation, Sources, Notes, ConfigNotes, Count };
constexpr Band kFoldOrder[] = {Band::Strip, Band::Paint, Band::Focus, Band::Rotation, Band::Sources, Band::Notes, Band::ConfigNotes};

CanvasBands bands_with(const Painter& p, Rect body, float legend_h, int folded) {
    const auto kept = [&](Band b) {
        for (int i = 0; i < folded; ++i)
            if (kFoldOrder[i] == b) return false;
        return true;
    };
    const float s = p.f->scale;
    const StepDisplay& sd = p.display(p.f->step);
    CanvasBands out;
    const float roomy = 8.0f * p.small_size();
    // The mask painter's toggle and help, on score and weight steps.
    out.paint_h = kept(Band::Paint) && body.h > roomy ? paint_bar_height(p) : 0.0f;
    body.y += out.paint_h;
    body.h -= out.paint_h;
    const float strip_h = 2.0f * p.small_size() + 26.0f * s;
    out.strip = kept(Band::Strip) && p.f->show_storage && body.h > 6.0f * strip_h;
    out.strip_h = storage_strip_height(p, body.w);
    // A little air between the heatmaps and the strip's caption.
    body.h -= (out.strip ? out.strip_h + 6.0f * s : 0.0f) + legend_h;
    // Weight steps: how peaked each head is, in numbers, under the legend.
    const bool room = body.h > roomy;
    out.focus_h = kept(Band::Focus) && room ? focus_summary_height(p, sd, body.w) : 0.0f;
    out.notes_h = kept(Band::Notes) && room ? notes_height(p, sd, body.w) : 0.0f;
    // What the configuration does here (fully masked rows, key/value groups), worded now.
    if (kept(Band::ConfigNotes) && room) out.more_notes = wrap_notes(p, config_notes(*p.f), body.w);
    out.more_notes_h = config_notes_height(p, out.more_notes);
    // RoPE steps: one head vector's coordinate pairs turning on dials.
    out.rotation_h = kept(Band::Rotation) && body.h > 14.0f * p.small_size() ? rotation_band_height(p, body.w) : 0.0f;
    body.h -= out.focus_h + out.notes_h + out.more_notes_h + out.rotation_h;
    out.body = body;
    out.sources = kept(Band::Sources);
    return out;
}

// The side of the result's cells with these bands (the focus column beside the grid too).
float result_cell(const Painter& p, const CanvasUi& ui, const CanvasBands& bands) {
    const StepDisplay& sd = p.display(p.f->step);
    Rect area = split_result(p, ui, bands.body, bands.sources).result;
    if (bands.focus_h > 0.0f) area.w -= focus_column_width(p, sd);
    const std::vector<int> visible = visible_panels(sd, ui);
    const StepLayout lay = layout_step(shown_arrangement(sd, visible), sd.joined, panel_sizes(sd, visible), area, p.style);
    return lay.panels.empty() ? 0.0f : std::min(lay.panels.front().cell_w, lay.panels.front().cell_h);
}

}  // namespace

CanvasBands plan_bands(const Painter& p, const CanvasUi& ui, const Rect& body, float legend_h) {
    if (!p.f->presentation) return bands_with(p, body, legend_h, 0);
    // Presentation: the picture comes first. Bands fold, least needed first, until its
    // cells hold a number ("-0.00" in the small font).
    const float wanted = p.measure(p.f->fonts.small, "-0.00").x + 6.0f * p.f->scale;
    std::vector<float> cells;
    for (int folded = 0; folded <= static_cast<int>(Band::Count); ++folded) cells.push_back(result_cell(p, ui, bands_with(p, body, legend_h, folded)));
    return bands_with(p, body, legend_h, bands_to_fold(cells, wanted));
}

CanvasRequests draw_canvas(const CanvasFrame& frame, CanvasUi& ui, const Rect& area) {
    CanvasRequests requests;
    if (!frame.trace || !frame.model || area.w < 8.0f || area.h < 8.0f) return requests;
    if (frame.step < 0 || frame.step >= static_cast<int>(frame.model->steps.size())) return requests;
    if (shows_weight_lines(frame)) return draw_weights_as(frame, ui, area);  // View > Weights as (view_weight_lines.h)
    Painter p;
    p.dl = ImGui::GetWindowDrawList();
    p.f = &frame;
    p.pal = canvas_palette(frame.light);
    const float s = frame.scale;
    p.style.gap = 16.0f * s;
    p.style.group_gap = 10.0f * s;
    p.style.max_cell = 64.0f * s;
    p.style.min_row = p.small_size() + 4.0f * s;
    p.style.comfortable_cell = p.small_size() * 2.1f;
    p.style.header = p.small_size() + 8.0f * s;
    p.style.col_header = p.small_size() + 3.0f * s;
    // Gutter wide enough for the longest token (clipped at ~9 characters).
    float gutter = p.measure(frame.fonts.small, "0000").x;
    for (const auto& t : frame.model->query_tokens) gutter = std::max(gutter, p.measure(frame.fonts.small, clip_label(t, 9)).x);
    p.style.row_gutter = gutter + 10.0f * s;

    p.dl->PushClipRect(ImVec2(area.x, area.y), ImVec2(area.right(), area.bottom()), true);
    p.dl->AddRectFilled(ImVec2(area.x, area.y), ImVec2(area.right(), area.bottom()), p.pal.background);

    const StepDisplay& sd = p.display(frame.step);
    const Step& step = p.step(frame.step);
    const float pad = 12.0f * s;
    const float legend_h = 2.0f * p.small_size() + 16.0f * s;
    Rect body{area.x + pad, area.y + pad, area.w - 2 * pad, area.h - 2 * pad};

    // Shape line: the tensor's name and named dimensions, and what is shown of it.
    const std::string caption = canvas_caption(frame, ui);
    p.text(frame.fonts.regular, ImVec2(body.x, body.y), p.pal.text, caption);
    float caption_w = p.measure(frame.fonts.regular, caption).x;
    if (!frame.notice.empty()) {
        const float x = body.x + caption_w + 16.0f * s;
        p.text(frame.fonts.regular, ImVec2(x, body.y), p.pal.notice, frame.notice);
        caption_w += 16.0f * s + p.measure(frame.fonts.regular, frame.notice).x;
    }
    // The colour legend sits beside the caption when the line has room (the rows below
    // then keep the height a band of their own would take), else under the heatmaps.
    float legend_w = std::min(260.0f * s, body.w * 0.4f);
    const float legend_bar_h = 10.0f * s;
    float legend_block_w = legend_w;
    if (sd.masked_cells > 0 || sd.masked_zero_cells > 0) {
        legend_block_w += p.measure(frame.fonts.small, text::tr("canvas.legend.masked_key")).x + legend_bar_h * 3.6f + 18.0f * s;

    }
    // On the caption line the bar may shrink to 150 px (scaled) to fit beside a long caption.
    const float top_room = body.w - caption_w - 24.0f * s - (legend_block_w - legend_w) - frame.top_right_reserved;
    const bool legend_on_top = top_room >= std::min(legend_w, 150.0f * s);
    if (legend_on_top) legend_w = std::min(legend_w, top_room);
    const float caption_h = p.font_size() + 8.0f * s;
    const float top_h = legend_on_top ? std::max(caption_h, 2.0f * p.small_size() + legend_bar_h + 6.0f * s) : caption_h;
    const Rect legend_rect = legend_on_top
                                 ? Rect{body.right() - frame.top_right_reserved - legend_w, body.y + p.small_size() + 2.0f,
                                        legend_w, legend_bar_h}
                                 : Rect{};
    body.y += top_h;
    body.h -= top_h;
    const CanvasBands bands = plan_bands(p, ui, body, legend_on_top ? 0.0f : legend_h);
    const float paint_h = bands.paint_h, focus_h = bands.focus_h, notes_h = bands.notes_h, rotation_h = bands.rotation_h;
    const bool strip = bands.strip;
    const std::vector<std::string>& more_notes = bands.more_notes;
    const float more_notes_h = bands.more_notes_h;
    const Rect paint_area{body.x, body.y, body.w, paint_h};
    const Rect strip_area{body.x, body.bottom() - bands.strip_h, body.w, bands.strip_h};
    body = bands.body;
    // Everything below the heatmaps (legend, readouts, notes, dials, strip) stays uncovered.
    ui.pictures_bottom = body.bottom();
    const Rect focus_area{body.x, body.bottom() + (legend_on_top ? 0.0f : legend_h), body.w, focus_h};
    const Rect notes_area{body.x, focus_area.bottom(), body.w, notes_h};
    const Rect more_notes_area{body.x, notes_area.bottom(), body.w, more_notes_h};
    const Rect rotation_area{body.x, more_notes_area.bottom(), body.w, rotation_h};

    // Projections read as a matrix product (X, W^T, b, Y); everything else as the result
    // with its sources in a column beside it.
    ResultDrawn drawn;
    if (step.kind != StepKind::Projection || !draw_product(p, ui, body, drawn)) {
        const CanvasSplit split = split_result(p, ui, body, bands.sources);
        Rect result_area = split.result;
        const float column_w = focus_h > 0.0f ? focus_column_width(p, sd) : 0.0f;
        result_area.w -= column_w;
        drawn = draw_result(p, ui, result_area);
        if (column_w > 0.0f && frame.progress >= 1.0f) {
            // Beside the grid, level with the chosen head's rows.
            const int head = ui.chosen_head();
            float right = result_area.x;
            for (const PanelPlace& place : drawn.layout.panels) right = std::max(right, place.rect.right());
            for (size_t k = 0; k < drawn.visible.size() && k < drawn.layout.panels.size(); ++k) {
                if (sd.panels[static_cast<size_t>(drawn.visible[k])].head != head) continue;
                draw_focus_column(p, sd, head, drawn.layout.panels[k], right + 8.0f * s);
            }
        }
        // The operands follow the chosen head; the animation's cursor or the hovered cell
        // previews another one, and a pinned cell counts unless another head was chosen.
        CellRef active = drawn.active;
        const auto on_step = [&](const CellRef& ref) { return ref.valid() && ref.step == frame.step && frame.progress >= 1.0f; };
        if (!active.valid() && on_step(ui.hovered)) active = ui.hovered;
        if (!active.valid() && on_step(ui.pinned) && ui.pinned.panel < static_cast<int>(sd.panels.size()) &&
            (ui.enlarged_head < 0 || sd.panels[static_cast<size_t>(ui.pinned.panel)].head == ui.enlarged_head))
            active = ui.pinned;
        if (split.sources.w > 0.0f) draw_sources(p, ui, split.sources, active);
    }

    draw_painted_cells(p, drawn);
    // Numbers that do not fit are hidden for the whole step, and the canvas says so: on the
    // caption line when it has room, else under the picture.
    ui.result_cell = drawn.layout.panels.empty() ? 0.0f : std::min(drawn.layout.panels.front().cell_w, drawn.layout.panels.front().cell_h);
    ui.numbers_hidden = frame.show_values && !drawn.layout.panels.empty() && frame.progress >= 1.0f &&
                        cell_number_format(p, frame.step, drawn.layout.panels.front().cell_w, drawn.layout.panels.front().cell_h).decimals < 0;
    if (ui.numbers_hidden) {
        // Under the caption when the legend beside it makes that line two rows tall, else
        // after the caption when it has room, else under the picture.
        const std::string hidden = text::tr("canvas.numbers_hidden");
        const float caption_y = area.y + pad;
        const float x = area.x + pad + caption_w + 16.0f * s;
        const float limit = legend_on_top ? legend_rect.x - (legend_block_w - legend_w) - 12.0f * s : area.right() - pad - frame.top_right_reserved;
        ImVec2 at(drawn.layout.bounds.x, drawn.layout.bounds.bottom() + 2.0f * s);
        if (top_h >= caption_h + p.small_size()) at = ImVec2(area.x + pad, caption_y + p.font_size() + 4.0f * s);
        else if (x + p.measure(frame.fonts.small, hidden).x <= limit) at = ImVec2(x, caption_y + (p.font_size() - p.small_size()) * 0.5f);
        p.text(frame.fonts.small, at, p.pal.dim_text, hidden);
    }
    // Pinned and hovered cells are outlined.
    for (const CellRef& ref : {ui.pinned, ui.hovered}) {
        if (!ref.valid() || ref.step != frame.step || frame.progress < 1.0f) continue;
        for (const ResultDrawn::Operand& o : drawn.operands)
            if (o.part == ref.part && o.panel == ref.panel)
                outline_rect(p, cell_rect(o.rect, o.rect.w / static_cast<float>(o.cols), o.rect.h / static_cast<float>(o.rows), ref.row, ref.col), 2.0f);
        if (ref.part != CellRef::Part::Result) continue;
        for (size_t k = 0; k < drawn.visible.size(); ++k) {
            if (drawn.visible[k] != ref.panel) continue;
            const PanelPlace& place = drawn.layout.panels[k];
            Rect outline = cell_rect(place.rect, place.cell_w, place.cell_h, ref.row, ref.col);
            if (ui.paint_mode && paint_h > 0.0f && ref == ui.hovered) {
                // What a click would paint: with Shift the query row, with Ctrl or Alt the key column.
                const ImGuiIO& io = ImGui::GetIO();
                const PaintReach reach = paint_reach(io.KeyShift, io.KeyCtrl, io.KeyAlt);
                if (reach == PaintReach::Row) outline = Rect{place.rect.x, outline.y, place.rect.w, outline.h};
                if (reach == PaintReach::Column) outline = Rect{outline.x, place.rect.y, outline.w, place.rect.h};
            }
            outline_rect(p, outline, 2.0f);
        }
    }

    draw_legend(p, sd, legend_on_top ? legend_rect
                                     : Rect{body.right() - legend_w, body.bottom() + p.small_size() + 6.0f * s, legend_w, legend_bar_h});
    if (strip) draw_storage_strip(p, strip_area);
    if (focus_h > 0.0f) draw_focus_summary(p, sd, focus_area);
    if (notes_h > 0.0f) draw_notes(p, sd, notes_area);
    if (more_notes_h > 0.0f) draw_config_notes(p, more_notes, more_notes_area);
    if (rotation_h > 0.0f) draw_rotation_band(p, ui, rotation_area);
    p.dl->PopClipRect();
    if (paint_h > 0.0f) requests.clear_paint = draw_paint_bar(p, ui, paint_area);

    // Mouse: hover shows a cell, click pins it, clicking a head's title enlarges it.
    ui.hovered = CellRef{};
    if (!frame.interactive || !ImGui::IsWindowHovered()) return requests;
    const ImVec2 m = ImGui::GetMousePos();
    const CellHit hit = hit_test(drawn.layout, drawn.sizes, m.x, m.y);
    if (hit.panel >= 0) {
        const int panel = drawn.visible[static_cast<size_t>(hit.panel)];
        ui.hovered = CellRef{frame.step, panel, hit.row, hit.col};
        const int head = sd.panels[static_cast<size_t>(panel)].head;
        if (ui.paint_mode && paint_h > 0.0f) {
            // Painting: the click masks or unmasks (query row, key col); it pins nothing,
            // and waits for the step's animation to end (the cells are then where they are drawn).
            ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
            if (frame.progress >= 1.0f && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
                const ImGuiIO& io = ImGui::GetIO();
                requests.paint = MaskPaint{hit.row, hit.col, paint_reach(io.KeyShift, io.KeyCtrl, io.KeyAlt)};
            }
            return requests;
        }
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
            ui.pinned = ui.hovered;
            if (head >= 0) ui.focus_head = head;  // a click chooses; hovering only previews
        }
        if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && sd.arrangement == Arrangement::Grid) {
            ui.enlarged_head = ui.enlarged_head >= 0 ? -1 : head;
        }
        return requests;
    }
    // A cell of X, W^T or b (projections): inspectable, and pinned by a click.
    for (const ResultDrawn::Operand& o : drawn.operands) {
        if (!o.rect.contains(m.x, m.y) || o.rows <= 0 || o.cols <= 0) continue;
        const int row = std::clamp(static_cast<int>((m.y - o.rect.y) / o.rect.h * static_cast<float>(o.rows)), 0, o.rows - 1);
        const int col = std::clamp(static_cast<int>((m.x - o.rect.x) / o.rect.w * static_cast<float>(o.cols)), 0, o.cols - 1);
        ui.hovered = CellRef{frame.step, o.panel, row, col, o.part};
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ui.pinned = ui.hovered;
        return requests;
    }
    // Click on a panel's header area (just above it) toggles enlargement.
    if (sd.arrangement == Arrangement::Grid && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
        for (size_t k = 0; k < drawn.layout.panels.size(); ++k) {
            const Rect& r = drawn.layout.panels[k].rect;
            const Rect head_area{r.x, r.y - p.style.header - p.style.col_header, r.w, p.style.header + p.style.col_header};
            if (head_area.contains(m.x, m.y)) {
                const int head = sd.panels[static_cast<size_t>(drawn.visible[k])].head;
                ui.enlarged_head = ui.enlarged_head >= 0 ? -1 : head;
            }
        }
    }
    return requests;
}

}  // namespace attn::gui
