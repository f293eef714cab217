// The canvas's heatmap pieces: the texture of a panel, its frame and head label, the
// numbers in the cells (one format per step), hatching plates, the colour legend.
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
#include "app/gui/views/canvas/view_canvas_notes.h"
#include "app/gui/views/canvas/view_canvas_product.h"
#include "app/gui/views/canvas/view_storage.h"
#include "app/text/languages.h"
#include "core/masked_score.h"
#include "core/text_split.h"


namespace attn::gui {

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
    image.draw(*p.dl, a, b, col0, row0, col1, row1, tint);
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

// A difference from float32 in at most 6 characters: "0", "2.9e-3", "1.2e+1". A key masked
// in both runs has no difference to show (make_difference_trace marks it -inf): no number,
// its hatching says it.
std::string format_difference(float v) {
    if (v == 0.0f) return "0";
    if (std::isinf(v)) return "";
    char text[32];
    std::snprintf(text, sizeof text, "%.1e", static_cast<double>(v));
    std::string out = text;
    // "2.9e-03" -> "2.9e-3": C prints at least two exponent digits.
    const size_t e = out.find('e');
    if (e != std::string::npos && e + 2 < out.size() && out[e + 2] == '0') out.erase(e + 2, 1);
    return out;
}


}  // namespace

// display model writes these marks into the panel's values (-inf / +inf).
static int hatch_mark(const Panel& pn, int row, int col) {
    if (pn.tex_rows != pn.rows || pn.tex_cols != pn.cols) return 0;  // pooled: no cell of its own
    const size_t index = static_cast<size_t>(row) * static_cast<size_t>(pn.cols) + static_cast<size_t>(col);
    if (index >= pn.values.size() || !std::isinf(pn.values[index])) return 0;
    return pn.values[index] < 0 ? -1 : 1;
}

// Digits over hatching are hard to read (stripes cross them): masked cells get a plate
// of their plain colour behind the text, so "-inf", "-1e+20" and "0.00" read in both themes.
void draw_hatched_cell_plate(const Painter& p, const Panel& pn, int row, int col, const StepDisplay& sd,
                             ImVec2 center, ImVec2 text_size, float alpha) {
    const int mark = hatch_mark(pn, row, col);
    if (mark == 0) return;
    const Rgb base = mark < 0 ? p.pal.masked : sample_colormap(sd.colormap, colormap_position(0.0f, sd.vmin, sd.vmax));
    const float pad = 2.0f * p.f->scale;
    p.dl->AddRectFilled(ImVec2(center.x - text_size.x * 0.5f - pad, center.y - text_size.y * 0.5f),
                        ImVec2(center.x + text_size.x * 0.5f + pad, center.y + text_size.y * 0.5f), pack_rgba(base, alpha * 0.92f),
                        2.0f * p.f->scale);
}

namespace {

// The values of `step`'s cells that print numbers (panels small enough), and with
// `with_peer` those of compare mode's other column at the same step.
std::vector<float> shown_values(const Painter& p, int step, bool with_peer) {
    std::vector<float> values;
    const auto add_values = [&](const Tensor& t, const StepDisplay& sd) {
        for (const Panel& pn : sd.panels) {
            if (static_cast<int64_t>(pn.rows) * pn.cols > kMaxCellsWithNumbers) continue;
            for (int i = 0; i < pn.rows; ++i)
                for (int j = 0; j < pn.cols; ++j) values.push_back(cell_value(t, pn, i, j));
        }
    };
    add_values(p.step(step).tensor, p.display(step));
    // The peer's values too (compare mode's other column): one rule for both pictures.
    const CanvasFrame::NumberPeer& peer = p.f->number_peer;
    if (with_peer && peer.trace && peer.model && step == p.f->step && peer.step >= 0 &&
        peer.step < static_cast<int>(peer.model->steps.size()) && peer.model->steps[static_cast<size_t>(peer.step)].built)
        add_values(peer.trace->steps[static_cast<size_t>(peer.step)].tensor, peer.model->steps[static_cast<size_t>(peer.step)]);
    return values;
}

// The decimals every panel of `step` is drawn with in `max_chars` characters: one rule for
// the whole step, so a head with a minus sign does not print less than its neighbours.
int step_decimals(const Painter& p, int step, int max_chars) {
    for (const auto& [key, decimals] : p.decimals_memo)
        if (key == std::make_pair(step, max_chars)) return decimals;
    const std::vector<float> values = shown_values(p, step, true);
    const int decimals = values.empty() ? -1 : choose_cell_decimals(values.data(), values.size(), max_chars);
    p.decimals_memo.emplace_back(std::make_pair(step, max_chars), decimals);
    return decimals;
}

// A difference step's widest "2.9e-3" (in characters) and largest finite |value|.
std::pair<int, float> difference_widths(const Painter& p, int step) {
    for (const auto& [key, widths] : p.difference_memo)
        if (key == step) return widths;
    std::pair<int, float> widths{0, 0.0f};
    for (const float v : shown_values(p, step, false)) {
        if (!std::isfinite(v)) continue;  // a key masked in both runs: no number
        widths.first = std::max(widths.first, static_cast<int>(format_difference(v).size()));
        widths.second = std::max(widths.second, std::fabs(v));
    }
    p.difference_memo.emplace_back(step, widths);
    return widths;
}

// How a step's numbers print in `max_chars` characters by `format`'s kind (its decimals,
// difference and scaled already set as the pass tries them): decimals, or -1 when some
// number would not fit.
int decimals_that_fit(const Painter& p, int step, const NumberFormat& format, bool ids, int max_chars) {
    if (ids) return 0;  // a vocabulary id or word too long for its cell is left out alone
    if (format.scaled > 0 || format.difference) {
        const std::pair<int, float> widths = difference_widths(p, step);
        const float largest = widths.second;
        const int chars = format.difference ? widths.first
                                            : static_cast<int>(std::max(format_cell_scaled(largest, format.scaled).size(),
                                                                        format_cell_scaled(-largest, format.scaled).size()));
        return chars <= max_chars ? 0 : -1;
    }
    return step_decimals(p, step, max_chars);
}

}  // namespace

// The vocabulary's word for an id held as a float ("" when out of range).
static std::string vocabulary_word(const Painter& p, float id) {
    const std::vector<std::string>& vocabulary = p.f->model->vocabulary;
    const long index = std::lround(id);
    return index >= 0 && index < static_cast<long>(vocabulary.size()) ? vocabulary[static_cast<size_t>(index)] : "";
}

// The decimals a step's plain numbers keep at type size `font` in cells of this size (-1: none).
static int kept_decimals(const Painter& p, int step, float font, float cell_w, float cell_h) {
    if (cell_h < font + 1.0f) return -1;
    const int max_chars = static_cast<int>((cell_w - 2.0f) / measure_at(p, font, "0").x);
    return max_chars < 3 ? -1 : step_decimals(p, step, max_chars);
}

NumberFormat cell_number_format(const Painter& p, int step, float cell_w, float cell_h) {
    NumberFormat out;
    const StepDisplay& sd = p.display(step);
    if (sd.panels.empty()) return out;
    // Ids are whole numbers: "38", not "38.00". Differences from float32 are tiny: "2.9e-3"
    // says more than "0.00" (format_difference).
    const bool signed_difference = p.f->model->signed_difference;
    const bool differences = signed_difference || p.f->model->colour_scale.difference_from_float32;
    // Compare mode's A − B reads as plain numbers ("-0.12") unless it is all rounding.
    const bool e_notation = signed_difference ? sd.vmax < 0.01f : differences;
    const bool ids = sd.colormap == ColormapKind::Neutral;  // token ids, also in a difference model
    // Fewer decimals first, then smaller type (down to 60% of the labels' size), and only
    // then colours alone. Numbers read from the back of a room (presentation, and compare
    // mode's three columns, whose cells are a third of the canvas's) start as large as 40%
    // of the cell's height in digits (a digit is about 0.73 of the type's size), at most
    // twice the body text, and shrink only as far as the cell's width needs, a pixel at a time.
    float largest = p.small_size();
    const float body = p.f->fonts.regular ? p.f->fonts.regular->FontSize : p.font_size();  // the explanation's type
    const bool room = p.f->presentation || p.f->bare;
    if (room) largest = std::max(largest, std::min(cell_h * 0.4f / 0.73f, 2.0f * body));
    const float smallest = std::max(8.0f, p.small_size() * 0.6f);
    const float step_px = room ? 1.0f : std::max(1.0f, largest * 0.1f);
    // A difference too wide for every size is tried once more as whole numbers of 10^-k
    // ("-48" for -0.48): two digits of the largest, and a line under the picture names the
    // unit. Not rounding (rounding_only): "24" for 2.4e-7 would make noise look like a result.
    const bool scaled_try = differences && !ids && !sd.rounding_only;
    for (int pass = 0; pass < (scaled_try ? 2 : 1); ++pass) {
        NumberFormat tried;
        tried.difference = pass == 0 && e_notation;
        tried.largest = differences ? difference_widths(p, step).second : 0.0f;
        tried.scaled = pass == 1 ? scaled_exponent(tried.largest) : 0;
        if (pass == 1 && tried.scaled == 0) break;  // whole numbers already were the plain try
        // Compare mode's columns are read against each other (0.53 in A, 0.86 in B, -0.33 in
        // A − B; "0.5" and "0.9" would not add up): a decimal that fits at the body text's
        // size is kept rather than traded for larger type.
        const int keep = p.f->bare && pass == 0 && !ids && !tried.difference
                             ? kept_decimals(p, step, std::clamp(body, smallest, largest), cell_w, cell_h)
                             : -1;
        for (float font = largest; font >= smallest - 0.01f; font -= step_px) {
            if (cell_h < font + 1.0f) continue;
            // Digits are the widest characters; sign and point are narrower, so this never overflows.
            const int max_chars = static_cast<int>((cell_w - 2.0f) / measure_at(p, font, "0").x);
            if (max_chars < 3) continue;
            const int decimals = decimals_that_fit(p, step, tried, ids, max_chars);
            if (decimals < 0 || decimals < keep) continue;
            out = tried;
            out.decimals = decimals;
            out.max_chars = max_chars;
            out.font_px = font;
            return out;
        }
    }
    return out;
}

std::string cell_numbers_note(const NumberFormat& format) {
    if (format.decimals < 0) return text::tr("canvas.numbers_hidden");
    if (format.scaled <= 0) return "";
    return text::trf("canvas.numbers_scaled", {{"factor", format_power_of_ten(format.scaled)},
                                                {"example", format_cell_scaled(format.largest, format.scaled)},
                                                {"value", format_cell_fixed(format.largest, format.scaled)}});  // "0.90", not "0.9"
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
    // Compare mode's A − B has nothing to say about a key masked in both runs: its hatching
    // alone, as in the scores (-inf, no number), not "0.00" over the stripes.
    const bool blank_masked = p.f->model->signed_difference;
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
            if (blank_masked && hatch_mark(pn, i, j) != 0) continue;
            const std::string s = difference        ? format_difference(v)
                                  : format.scaled > 0 ? format_cell_scaled(v, format.scaled)
                                  : words           ? vocabulary_word(p, v)
                                                    : format_cell_fixed(v, decimals);
            if (s.empty() || static_cast<int>(s.size()) > max_chars) continue;
            const bool masked = hatch_mark(pn, i, j) < 0 || (std::isinf(v) && v < 0);
            const Rgb c = sample_colormap(sd.colormap, colormap_position(v, sd.vmin, sd.vmax));
            const bool dark_text = masked ? p.f->light : luminance(c) > 0.45f;
            const uint32_t color = dark_text ? IM_COL32(20, 20, 24, a) : IM_COL32(250, 250, 250, a);
            const ImVec2 size = measure_at(p, format.font_px, s);
            draw_hatched_cell_plate(p, pn, i, j, sd, ImVec2(r.x + (static_cast<float>(j) + 0.5f) * cell_w,
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

std::string masked_legend_label(const CanvasFrame& frame, bool scores) {
    if (!scores) return text::tr("canvas.legend.masked_key");
    if (frame.model->signed_difference) return text::tr("compare.legend.masked");
    // Differences from float32 hold no fill: the key was masked in both runs.
    if (frame.model->colour_scale.difference_from_float32) return text::tr("canvas.legend.masked_both");
    // The fill the mask wrote (-inf, -1e+20, -3.4e+38): a finite fill is drawn hatched too.
    const AttentionConfig& c = frame.trace->config;
    return text::trf("canvas.legend.masked", {{"fill", format_value(masked_score_fill(c.mask_spec().fill, c.dtype), 2)}});
}

std::string legend_title(const Painter& p, const StepDisplay& sd) {
    if (sd.colormap == ColormapKind::Neutral) return text::tr("canvas.legend.ids");  // ids: a scale would suggest amounts
    const std::string hi = format_value(sd.vmax);
    if (p.f->model->signed_difference) {
        const float largest = std::max(std::fabs(sd.data_min), std::fabs(sd.data_max));
        if (largest == 0.0f) return text::tr("compare.legend.identical");
        if (sd.rounding_only) return text::trf("compare.legend.rounding", {{"max", format_value(largest, 2)}});
        return text::trf("compare.legend.difference", {{"max", hi}});
    }
    if (p.f->model->colour_scale.difference_from_float32) return text::trf("canvas.legend.difference", {{"max", hi}});
    std::string title = text::tr(sd.colormap == ColormapKind::Sequential ? "canvas.legend.probability" : "canvas.legend.value");
    if (sd.stretched) title += text::trf("canvas.legend.stretched", {{"top", hi}});
    else if (p.f->model->colour_scale.one_scale_across_steps) title += text::tr("canvas.legend.one_scale");
    return title;
}

std::vector<std::string> legend_title_lines(const Painter& p, const StepDisplay& sd, float width) {
    return wrap_notes(p, {legend_title(p, sd)}, width);
}

float legend_line_h(const Painter& p) { return p.small_size() + 2.0f; }

void draw_legend(const Painter& p, const StepDisplay& sd, const Rect& r, bool swatch, float title_w) {
    // The title above the bar, right-aligned with its end, wrapped to `title_w` (the bar's
    // width at least), its last line just above the bar.
    const std::vector<std::string> lines = legend_title_lines(p, sd, std::max(r.w, title_w));
    for (size_t i = 0; i < lines.size(); ++i) {
        const float y = r.y - legend_line_h(p) * static_cast<float>(lines.size() - i);
        const float x = std::min(r.x, r.right() - p.measure(p.f->fonts.small, lines[i]).x);
        p.text(p.f->fonts.small, ImVec2(x, y), p.pal.dim_text, lines[i]);
    }
    if (sd.colormap == ColormapKind::Neutral) return;
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
    const bool diverging = sd.colormap == ColormapKind::Diverging;
    if (diverging) p.dl->AddLine(ImVec2(r.x + r.w * 0.5f, r.y), ImVec2(r.x + r.w * 0.5f, r.bottom()), p.pal.frame);
    // The numbers under the bar, measured so none is drawn over another (A − B's narrow
    // columns at 1024x768). Identical runs read "0" in the middle, not "-1e-30 .. 1e-30".
    const bool identical = p.f->model->signed_difference && sd.data_min == 0.0f && sd.data_max == 0.0f;
    const auto texts = [&](int digits) { return std::make_pair(format_value(sd.vmin, digits), format_value(sd.vmax, digits)); };
    const auto width_of = [&](const std::string& t) { return p.measure(p.f->fonts.small, t).x; };
    const std::vector<LegendTick> ticks = identical ? std::vector<LegendTick>{{"0", r.x + (r.w - width_of("0")) * 0.5f}}
                                                    : place_legend_ticks(texts, diverging, r.x, r.w, 6.0f * p.f->scale, width_of);
    for (const LegendTick& tick : ticks) p.text(p.f->fonts.small, ImVec2(tick.x, r.bottom() + 2.0f), p.pal.dim_text, tick.text);
    if (swatch && (sd.masked_cells > 0 || sd.masked_zero_cells > 0)) {
        const float sx = r.x - p.measure(p.f->fonts.small, masked_legend_label(*p.f, sd.masked_cells > 0)).x - r.h * 2.0f - 18.0f * p.f->scale;
        draw_masked_swatch(p, sd, ImVec2(sx, r.y), r.h);
    }
}

void draw_masked_swatch(const Painter& p, const StepDisplay& sd, ImVec2 at, float bar_h) {
    if (sd.masked_cells <= 0 && sd.masked_zero_cells <= 0) return;
    // The same hatching the shader draws: masked is neither a value nor "not computed yet".
    const bool scores = sd.masked_cells > 0;
    const std::string label = masked_legend_label(*p.f, scores);
    const float side = bar_h * 1.6f;
    const Rect sw{at.x, at.y - (side - bar_h) * 0.5f, side, side};
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
    p.text(p.f->fonts.small, ImVec2(sw.right() + 5.0f * p.f->scale, at.y + bar_h * 0.5f - p.small_size() * 0.5f), p.pal.dim_text, label);
}


}  // namespace attn::gui
