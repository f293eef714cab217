#include "app/gui/views/canvas/view_weight_lines.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/gui/display/format.h"
#include "app/gui/display/head_groups.h"
#include "app/gui/views/canvas/view_canvas.h"
#include "app/gui/views/canvas/view_canvas_notes.h"
#include "app/text/languages.h"
#include "core/text_split.h"

namespace attn::gui {
namespace {

// Labels this many characters long at most (the heatmap's row labels clip the same way).
constexpr int kLabelChars = 9;


// The width of one printed weight ("0.00") and the space after it.
float number_width(const Painter& p, float size) { return measure_at(p, size, "0.00").x + 6.0f * p.f->scale; }

std::string token_label(const DisplayModel& model, const std::vector<std::string>& tokens, int i) {
    return i < static_cast<int>(tokens.size()) ? clip_label(model.shown_token(tokens[static_cast<size_t>(i)]), kLabelChars) : std::to_string(i);
}

uint32_t head_colour(const Painter& p, int head, float alpha) {
    if (head < 0) return pack_rgba(sample_colormap(ColormapKind::Neutral, 0.85f), alpha);  // the head mean
    return pack_rgba(step_head_color(p.f->trace->config, p.step(p.f->step).id, head), alpha);
}

// The heads drawn: one when a head is chosen in the selector, else all of them; when the
// overview selected several heads of this layer (Ctrl+click), those heads and their mean.
std::vector<HeadWeights> shown_heads(const Painter& p, const CanvasUi& ui) {
    std::vector<HeadWeights> heads = head_weights(*p.f->trace, p.f->step, p.f->model->batch_item, ui.enlarged_head);
    const int layer = p.f->trace->model.present() ? p.f->trace->model.layer : 0;
    std::optional<HeadWeights> mean = ui.enlarged_head < 0 ? mean_of_selected(heads, ui.overview_selected, layer) : std::nullopt;
    if (!mean) return heads;
    const auto unselected = [&](const HeadWeights& hw) {
        return std::find(ui.overview_selected.begin(), ui.overview_selected.end(), HeadRef{layer, hw.head}) == ui.overview_selected.end();
    };
    heads.erase(std::remove_if(heads.begin(), heads.end(), unselected), heads.end());
    heads.push_back(std::move(*mean));
    return heads;
}

// The head swatches and the hint above the lines; returns the height used. The swatches
// take as many lines as they need (every head is named, at any width).
float draw_key(const Painter& p, const std::vector<HeadWeights>& heads, const Rect& area, const std::string& hint) {
    const float s = p.f->scale, line_h = p.small_size() + 4.0f * s;
    float x = area.x, y = area.y;
    for (const HeadWeights& hw : heads) {
        const char* mean_key = heads.size() > 1 ? "overview.lines_mean" : "lines.head_mean";  // the overview's selection
        const std::string name = hw.head < 0 ? text::tr(mean_key) : text::trf("canvas.head", {{"head", hw.head}});
        const float w = p.measure(p.f->fonts.small, name).x + 22.0f * s;
        if (x > area.x && x + w - 7.0f * s > area.right()) {
            x = area.x;
            y += line_h;
        }
        const float mid = y + p.small_size() * 0.5f;
        p.dl->AddLine(ImVec2(x, mid), ImVec2(x + 12.0f * s, mid), head_colour(p, hw.head, 1.0f), 3.0f * s);
        p.text(p.f->fonts.small, ImVec2(x + 15.0f * s, y), p.pal.text, name);
        x += w;
    }
    y += line_h;
    for (const std::string& line : wrap_notes(p, {hint}, area.w)) {
        p.text(p.f->fonts.small, ImVec2(area.x, y), p.pal.dim_text, line);
        y += line_h;
    }
    return y - area.y + 4.0f * s;
}

// "queries" over the left column and "keys" over the right one, `y` being their top.
void draw_column_titles(const Painter& p, const TokenColumns& c, float y) {
    const std::string queries = text::tr("lines.queries"), keys = text::tr("lines.keys");
    p.text(p.f->fonts.small, ImVec2(c.query_x - p.measure(p.f->fonts.small, queries).x, y), p.pal.dim_text, queries);
    p.text(p.f->fonts.small, ImVec2(c.key_x, y), p.pal.dim_text, keys);
}

// Labels of one column: every `every`-th when nothing is focused, else the rows whose
// numbers are printed (and the focused token), so every number has its token beside it.
void draw_labels(const Painter& p, const TokenColumns& c, bool left, const std::vector<int>& rows, const std::vector<int>& marked) {
    const std::vector<std::string>& tokens = left ? p.f->model->query_tokens : p.f->model->key_tokens;
    const std::vector<float>& ys = left ? c.query_y : c.key_y;
    const float size = c.labels.font_px, gap = 6.0f * p.f->scale;
    for (int i : rows) {
        const std::string label = token_label(*p.f->model, tokens, i);
        const float w = measure_at(p, size, label).x;
        const float x = left ? c.query_x - gap - w : c.key_x + gap;
        const ImVec2 at(x, ys[static_cast<size_t>(i)] - size * 0.5f);
        const bool focused = std::find(marked.begin(), marked.end(), i) != marked.end();
        if (focused) p.dl->AddRectFilled(ImVec2(at.x - 3.0f, at.y - 1.0f), ImVec2(at.x + w + 3.0f, at.y + size + 1.0f), p.pal.highlight_fill);
        text_at(p, size, at, focused ? p.pal.text : p.pal.dim_text, label);
    }
}

std::vector<int> every_nth(int count, int every) {
    std::vector<int> rows;
    for (int i = 0; i < count; i += std::max(1, every)) rows.push_back(i);
    return rows;
}

// The focused token's weights as numbers at the far end of its lines, one per head in the
// head's colour; rows too close to a heavier one are left out. Returns the rows numbered.
std::vector<int> draw_numbers(const Painter& p, const TokenColumns& c, const std::vector<WeightLine>& lines,
                              const std::vector<HeadWeights>& heads, TokenRef focus, float number_band) {
    const bool at_keys = focus.side == TokenRef::Side::Query;
    const std::vector<float>& ys = at_keys ? c.key_y : c.query_y;
    const float size = c.labels.font_px;
    const float number_w = number_width(p, size);
    // Every head's number when the band beyond the labels holds them all, else the largest.
    const bool every_head = number_band + 0.5f >= number_w * static_cast<float>(heads.size());
    std::vector<float> largest(ys.size(), -1.0f);
    for (const WeightLine& l : lines) {
        float& m = largest[static_cast<size_t>(at_keys ? l.key : l.query)];
        m = std::max(m, l.weight);
    }
    const std::vector<int> rows = readable_rows(ys, largest, size * 1.1f);
    // Beyond the other column's labels, in the band kept for them (no line crosses them there).
    const float block = number_w * static_cast<float>(every_head ? heads.size() : 1);
    const float first_x = at_keys ? c.key_x + c.label_band : c.query_x - c.label_band - block;
    for (int row : rows) {
        if (largest[static_cast<size_t>(row)] < 0.0f) continue;  // masked: no line, no number
        const float y = ys[static_cast<size_t>(row)] - size * 0.5f;
        int slot = 0;
        for (size_t h = 0; h < heads.size(); ++h) {
            const int q = at_keys ? focus.index : row, k = at_keys ? row : focus.index;
            if (heads[h].is_masked(q, k)) continue;
            const float v = heads[h].weight(q, k);
            if (!every_head && v < largest[static_cast<size_t>(row)]) continue;
            const std::string number = text::fixed(v, 2);
            const float x = first_x + number_w * static_cast<float>(slot);
            text_at(p, size, ImVec2(x, y), head_colour(p, heads[h].head, 1.0f), number);
            ++slot;
            if (!every_head) break;
        }
    }
    return rows;
}

// Several queries selected: beside each key the weight it receives from them, summed, per
// head in the head's colour when the band holds them all, else the heads' mean. Returns the
// rows numbered.
std::vector<int> draw_sums(const Painter& p, const TokenColumns& c, const std::vector<HeadWeights>& heads,
                           const std::vector<int>& selected, float number_band) {
    const KeySums sums = key_sums(heads, selected);
    const float size = c.labels.font_px, number_w = number_width(p, size);
    const bool every_head = number_band + 0.5f >= number_w * static_cast<float>(heads.size());
    const std::vector<int> rows = readable_rows(c.key_y, sums.head_mean, size * 1.1f);
    for (int row : rows) {
        const ImVec2 at(c.key_x + c.label_band, c.key_y[static_cast<size_t>(row)] - size * 0.5f);
        if (!every_head) {
            text_at(p, size, at, p.pal.text, text::fixed(sums.head_mean[static_cast<size_t>(row)], 2));
            continue;
        }
        for (size_t h = 0; h < heads.size(); ++h)
            text_at(p, size, ImVec2(at.x + number_w * static_cast<float>(h), at.y), head_colour(p, heads[h].head, 1.0f),
                    text::fixed(sums.per_head[h][static_cast<size_t>(row)], 2));
    }
    return rows;
}

// The lines themselves. Lines too faint to see one by one are not drawn: L = 64 with 8
// heads is 32768 pairs, and thousands of near-uniform weights (1/64 each) would only
// pile up into a grey haze that hides the few lines that carry weight.
// While the step animates, each query's fan grows from the query to its keys (fan_reach).
void draw_lines(const Painter& p, const TokenColumns& c, const std::vector<WeightLine>& lines, bool focused) {
    const float max_alpha = focused ? 1.0f : 0.85f;
    const int queries = static_cast<int>(c.query_y.size());
    struct Shown {
        ImVec2 from, to;
        uint32_t colour;
        float width;
    };
    std::vector<Shown> shown;
    uint64_t key = digest(kDigestStart, p.pal.background);
    for (const WeightLine& l : lines) {
        const float alpha = l.alpha * max_alpha;
        const float reach = fan_reach(p.f->progress, l.query, queries);
        if (alpha * 255.0f < 4.0f || reach <= 0.0f) continue;
        const ImVec2 from(c.query_x, c.query_y[static_cast<size_t>(l.query)]);
        const ImVec2 to(c.key_x, c.key_y[static_cast<size_t>(l.key)]);
        shown.push_back(Shown{from, ImVec2(from.x + (to.x - from.x) * reach, from.y + (to.y - from.y) * reach),
                              head_colour(p, l.head, alpha), l.width});
        key = digest(digest(digest(key, shown.back().to), shown.back().colour), l.width);
        key = digest(key, from);
    }
    // Drawn once into a picture and shown as one image while they stay the same (line_picture.h).
    // Exactly the band the lines cross (plus their thickness): the labels and column
    // titles around it stay drawn as text, never under the picture.
    float widest = 1.0f, top = c.area.bottom(), bottom = c.area.y;
    for (const std::vector<float>* ys : {&c.query_y, &c.key_y})
        for (float y : *ys) top = std::min(top, y), bottom = std::max(bottom, y);
    for (const Shown& l : shown) widest = std::max(widest, l.width);
    const float margin = std::ceil(widest * 0.5f + 2.0f);
    // On whole pixels, so the picture's texels fall exactly on the screen's.
    const float x0 = std::floor(c.query_x - margin), y0 = std::floor(top - margin);
    const Rect area{x0, y0, std::ceil(c.key_x + margin) - x0, std::ceil(bottom + margin) - y0};
    const auto draw = [&](ImDrawList& dl) {
        for (const Shown& l : shown) dl.AddLine(l.from, l.to, l.colour, l.width);
    };
    if (p.f->cache) p.f->cache->lines_picture().draw(*p.dl, area, p.pal.background, digest(key, area), draw);
    else draw(*p.dl);
}

WeightLinesStyle lines_style(const Painter& p, const Rect& area, int heads) {
    WeightLinesStyle style;
    const float s = p.f->scale;
    style.font_px = p.small_size();
    style.min_font_px = min_label_font(p);
    style.gap = 6.0f * s;
    style.max_width = 6.0f * s;
    style.min_width = 0.75f * s;
    float widest = measure_at(p, style.font_px, "000").x;
    for (const std::vector<std::string>* tokens : {&p.f->model->query_tokens, &p.f->model->key_tokens})
        for (const std::string& t : *tokens) {
            const std::string label = clip_label(p.f->model->shown_token(t), kLabelChars);
            widest = std::max(widest, measure_at(p, style.font_px, label).x);
            style.longest_label = std::max(style.longest_label, static_cast<int>(utf8_length(label)));
        }
    style.label_w = std::min(widest + 8.0f * s, area.w * 0.25f);
    // Room for every head's weight beside each column when it takes under a fifth of the
    // width a side, else for one (the largest).
    const float number_w = number_width(p, style.font_px);
    style.number_band = number_w * static_cast<float>(heads) <= area.w * 0.2f ? number_w * static_cast<float>(heads) : number_w;
    return style;
}

// The mouse, before anything is drawn, so this frame already shows what it points at: a
// click pins a token (or lets it go), Ctrl+click adds a query to the selection or takes it out.
void point_at_tokens(const CanvasFrame& frame, CanvasUi& ui, const TokenColumns& columns) {
    ui.lines_hovered = TokenRef{};
    if (!frame.interactive || !ImGui::IsWindowHovered()) return;
    const ImVec2 m = ImGui::GetMousePos();
    ui.lines_hovered = token_at(columns, m.x, m.y);
    if (!ImGui::IsMouseClicked(ImGuiMouseButton_Left) || !columns.area.contains(m.x, m.y)) return;
    std::vector<int>& selected = ui.lines_selected;
    if (ImGui::GetIO().KeyCtrl && ui.lines_hovered.side == TokenRef::Side::Query) {
        const auto at = std::find(selected.begin(), selected.end(), ui.lines_hovered.index);
        if (at == selected.end()) selected.push_back(ui.lines_hovered.index);
        else selected.erase(at);
        ui.lines_pinned = TokenRef{};
        return;
    }
    selected.clear();
    ui.lines_pinned = ui.lines_hovered == ui.lines_pinned ? TokenRef{} : ui.lines_hovered;
}

// The lines over `area` (caption, key, columns); reads and writes the lines' hover and pin.
void draw_lines_panel(const Painter& p, CanvasUi& ui, const Rect& area) {
    const CanvasFrame& frame = *p.f;
    const float s = frame.scale, pad = 12.0f * s;
    p.dl->AddRectFilled(ImVec2(area.x, area.y), ImVec2(area.right(), area.bottom()), p.pal.background);
    Rect body{area.x + pad, area.y + pad, area.w - 2.0f * pad, area.h - 2.0f * pad};
    // In presentation the caption may already stand in the side column (frame.key_beside).
    if (!frame.key_beside) {
        // Clear of the head selector in the canvas's top right corner: a caption that would
        // run under it takes more lines.
        const float text_w = std::max(40.0f * s, body.w - frame.top_right_reserved);
        for (const std::string& line : caption_lines(p, canvas_caption(frame, ui), text_w)) {
            p.text(frame.fonts.regular, ImVec2(body.x, body.y), p.pal.text, line);
            body.y += p.font_size() + 2.0f * s;
        }
        body.y += 6.0f * s;
    }
    const std::vector<HeadWeights> heads = shown_heads(p, ui);
    if (heads.empty()) return;
    // Selected queries (Ctrl+click) that this step has; the others are forgotten.
    std::vector<int> selected;
    for (int q : ui.lines_selected)
        if (q < heads.front().queries) selected.push_back(q);
    const std::string hint = selected.empty() ? text::tr("lines.hint") : text::trf("lines.selection", {{"count", static_cast<int>(selected.size())}});
    const float key_h = draw_key(p, heads, Rect{body.x, body.y, body.w, 0.0f}, hint);
    body.y += key_h;
    const float title_y = body.y;
    body.y += p.small_size() + 4.0f * s;
    body.h = area.bottom() - pad - body.y;
    if (body.h < 8.0f || body.w < 40.0f) return;
    const WeightLinesStyle style = lines_style(p, body, static_cast<int>(heads.size()));
    const TokenColumns columns = token_columns(heads.front().queries, heads.front().keys, body, style);
    // Above the taller column (cross-attention: S may differ from L).
    const float top_token = std::min(columns.query_y.front(), columns.key_y.empty() ? columns.query_y.front() : columns.key_y.front());
    draw_column_titles(p, columns, std::max(title_y, top_token - columns.row_h * 0.5f - p.small_size() - 4.0f * s));

    point_at_tokens(frame, ui, columns);
    TokenRef focus = ui.lines_hovered.valid() ? ui.lines_hovered : ui.lines_pinned;
    const int focus_count = focus.side == TokenRef::Side::Query ? heads.front().queries : heads.front().keys;
    if (focus.index >= focus_count) focus = TokenRef{};
    std::vector<WeightLine> lines = weight_lines(heads, columns, style, focus);
    const int every = columns.labels.every;
    if (!focus.valid() && !selected.empty()) {
        const auto unselected = [&](const WeightLine& l) { return std::find(selected.begin(), selected.end(), l.query) == selected.end(); };
        lines.erase(std::remove_if(lines.begin(), lines.end(), unselected), lines.end());
        draw_lines(p, columns, lines, true);
        draw_labels(p, columns, true, every_nth(heads.front().queries, every), selected);
        draw_labels(p, columns, false, draw_sums(p, columns, heads, selected, style.number_band), {});
        return;
    }
    draw_lines(p, columns, lines, focus.valid());
    if (!focus.valid()) {
        draw_labels(p, columns, true, every_nth(heads.front().queries, every), {});
        draw_labels(p, columns, false, every_nth(heads.front().keys, every), {});
        return;
    }
    const std::vector<int> numbered = draw_numbers(p, columns, lines, heads, focus, style.number_band);
    const bool query_focus = focus.side == TokenRef::Side::Query;
    const std::vector<int> focused{focus.index}, none;
    draw_labels(p, columns, true, query_focus ? focused : numbered, query_focus ? focused : none);
    draw_labels(p, columns, false, query_focus ? numbered : focused, query_focus ? none : focused);
}

}  // namespace

bool shows_weight_lines(const CanvasFrame& frame) {
    if (frame.weights_as == WeightsAs::Heatmap || !frame.trace || !frame.model) return false;
    if (frame.step < 0 || frame.step >= static_cast<int>(frame.trace->steps.size())) return false;
    return draws_weight_lines(frame.trace->steps[static_cast<size_t>(frame.step)].id);
}

CanvasRequests draw_weights_as(const CanvasFrame& frame, CanvasUi& ui, const Rect& area) {
    CanvasRequests requests;
    Rect lines_area = area;
    if (frame.weights_as == WeightsAs::Both) {
        // The heatmap canvas on the left half; the head selector's corner is the lines'.
        CanvasFrame heatmap = frame;
        heatmap.weights_as = WeightsAs::Heatmap;
        heatmap.top_right_reserved = 0.0f;
        heatmap.fold_bands = true;  // half a canvas: the picture first, as in presentation
        const float half = std::floor(area.w * 0.5f);
        requests = draw_canvas(heatmap, ui, Rect{area.x, area.y, half, area.h});
        lines_area = Rect{area.x + half, area.y, area.w - half, area.h};
    }
    Painter p;
    p.dl = ImGui::GetWindowDrawList();
    p.f = &frame;
    p.pal = canvas_palette(frame.light);
    p.dl->PushClipRect(ImVec2(lines_area.x, lines_area.y), ImVec2(lines_area.right(), lines_area.bottom()), true);
    draw_lines_panel(p, ui, lines_area);
    p.dl->PopClipRect();
    return requests;
}

}  // namespace attn::gui
