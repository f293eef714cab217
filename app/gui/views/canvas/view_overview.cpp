#include "app/gui/views/canvas/view_overview.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "app/gui/display/colormap.h"
#include "app/gui/display/weight_focus.h"
#include "app/gui/views/canvas/view_canvas_notes.h"
#include "app/gui/kit/cjk_wrap.h"
#include "app/gui/kit/test_hook.h"
#include "app/text/languages.h"
#include "core/text_split.h"

namespace attn::gui {
namespace {

const OverviewThumb* thumb_of(const OverviewGrid& grid, const OverviewCell& cell, const std::optional<OverviewThumb>& mean) {
    if (cell.thumb < 0) return mean ? &*mean : nullptr;
    return &grid.thumbs[static_cast<size_t>(cell.thumb)];
}

// The most characters of `s` (whole UTF-8 characters, at least 0) whose start, with `tail`
// after it, fits `width` at `size`: a binary search, as widths grow with the characters.
size_t fitting_chars(const Painter& p, float size, const std::string& s, const std::string& tail, float width) {
    size_t lo = 0, hi = utf8_length(s);
    while (lo < hi) {
        const size_t mid = (lo + hi + 1) / 2;
        if (measure_at(p, size, utf8_prefix(s, mid) + tail).x <= width) lo = mid;
        else hi = mid - 1;
    }
    return lo;
}

// `s` when it fits `width` at `size`, else its longest start that fits with "..." after it.
std::string fitted(const Painter& p, float size, const std::string& s, float width) {
    if (measure_at(p, size, s).x <= width) return s;
    const size_t n = fitting_chars(p, size, s, "...", width);
    return n == 0 ? "" : utf8_prefix(s, n) + "...";
}

// `s` cut into at most `max_lines` lines of `width` (at spaces where there are any, else
// between characters, as Chinese is written); the last line ends in "..." when cut.
std::vector<std::string> fitted_lines(const Painter& p, float size, const std::string& s, float width, int max_lines) {
    std::vector<std::string> lines;
    std::string rest = s;
    while (!rest.empty() && static_cast<int>(lines.size()) < max_lines) {
        if (static_cast<int>(lines.size()) == max_lines - 1 || measure_at(p, size, rest).x <= width) {
            lines.push_back(fitted(p, size, rest, width));
            break;
        }
        std::string line = utf8_prefix(rest, std::max<size_t>(1, fitting_chars(p, size, rest, "", width)));
        const size_t space = line.rfind(' ');
        if (space != std::string::npos && space > 0) line = line.substr(0, space);
        lines.push_back(line);
        rest = rest.substr(line.size());
        if (!rest.empty() && rest.front() == ' ') rest.erase(0, 1);
    }
    return lines;
}

std::string thumb_title(const OverviewThumb& t, int selected_count, bool layers_shown) {
    if (t.ref.layer < 0) return text::trf("overview.mean.title", {{"count", selected_count}});
    if (t.ref.head < 0) return layers_shown ? text::trf("overview.thumb.title_mean", {{"layer", t.ref.layer}}) : text::tr("lines.head_mean");
    if (!layers_shown) return text::trf("canvas.head", {{"head", t.ref.head}});
    return text::trf("overview.thumb.title", {{"layer", t.ref.layer}, {"head", t.ref.head}});
}

std::string peak_line(const Peakedness& peak, bool short_form) {
    if (peak.counted_rows == 0) return text::tr("overview.peak_none");
    return text::trf(short_form ? "overview.peak_short" : "overview.peak",
                     {{"max", text::fixed(static_cast<double>(peak.mean_max), 2)},
                      {"entropy", text::fixed(static_cast<double>(peak.mean_entropy), 2)}});
}

// The colour scale's top: 0..1 (or dropout's larger top), or stretched to the data as the
// View menu's "Stretch probabilities" asks of the heatmaps.
float colour_top(const CanvasFrame& frame, const OverviewGrid& grid) {
    return grid.top(frame.model && frame.model->colour_scale.stretch_probabilities);
}

// The thumbnail's weights over `r`, one rectangle per block of the pooled map.
void draw_picture(const Painter& p, const ThumbPicture& pic, float top, const Rect& r) {
    p.dl->AddRectFilled(ImVec2(r.x, r.y), ImVec2(r.right(), r.bottom()), p.pal.empty_cell);
    if (pic.rows <= 0 || pic.cols <= 0) return;
    const float cw = r.w / static_cast<float>(pic.cols), ch = r.h / static_cast<float>(pic.rows);
    const uint32_t masked = pack_rgba(p.pal.masked);
    for (int i = 0; i < pic.rows; ++i)
        for (int j = 0; j < pic.cols; ++j) {
            const size_t at = static_cast<size_t>(i) * static_cast<size_t>(pic.cols) + static_cast<size_t>(j);
            const bool hidden = !pic.masked.empty() && pic.masked[at] != 0;
            const uint32_t colour =
                hidden ? masked : pack_rgba(sample_colormap(ColormapKind::Sequential, colormap_position(pic.values[at], 0.0f, top)));
            // Rounded to whole pixels so neighbouring blocks meet without seams.
            const ImVec2 a(std::floor(r.x + cw * static_cast<float>(j)), std::floor(r.y + ch * static_cast<float>(i)));
            const ImVec2 b(std::floor(r.x + cw * static_cast<float>(j + 1)), std::floor(r.y + ch * static_cast<float>(i + 1)));
            p.dl->AddRectFilled(a, b, colour);
        }
}

// The title above a cell and its label lines under it, each cut to the cell's width.
void draw_cell_text(const Painter& p, const OverviewLayout& lay, const OverviewCell& cell, const std::string& title,
                    const OverviewThumb& t, bool highlighted) {
    const float size = lay.font_px, width = cell.picture.w + 4.0f * p.f->scale;
    if (lay.titles) text_at(p, size, ImVec2(cell.title.x, cell.title.y), highlighted ? p.pal.text : p.pal.dim_text, fitted(p, size, title, width));
    if (lay.label_lines == 0) return;
    std::string peak = peak_line(t.peak, false);
    if (measure_at(p, size, peak).x > width) peak = peak_line(t.peak, true);
    float y = cell.labels.y;
    text_at(p, size, ImVec2(cell.labels.x, y), p.pal.text, fitted(p, size, peak, width));
    // Every claim the card makes for the head gets its share of the lines left (at least
    // one each, in the card's order, while lines remain).
    int left = lay.label_lines - 1;
    const int share = t.claims.empty() ? 0 : std::max(1, left / static_cast<int>(t.claims.size()));
    for (const Message& claim : t.claims) {
        if (left <= 0) break;
        for (const std::string& line : fitted_lines(p, size, text::render(claim), width, std::min(share, left))) {
            y += lay.line_h;
            text_at(p, size, ImVec2(cell.labels.x, y), p.pal.dim_text, line);
            --left;
        }
    }
}

// The tokens along an enlarged map's rows (left of it) and columns (standing above it):
// only when the picture has one block per token and a block is tall enough for a word.
struct TipLabels {
    std::vector<std::string> rows, cols;  // fitted to `room`
    float font = 0, gutter = 0, header = 0;
};

TipLabels tip_labels(const Painter& p, const ThumbPicture& pic, float side) {
    if (!p.f->model || pic.rows <= 0 || pic.cols <= 0) return {};
    const std::vector<std::string>& queries = p.f->model->query_tokens;
    const std::vector<std::string>& keys = p.f->model->key_tokens;
    if (pic.rows != static_cast<int>(queries.size()) || pic.cols != static_cast<int>(keys.size())) return {};
    TipLabels t;
    t.font = std::min(p.small_size(), side / static_cast<float>(std::max(pic.rows, pic.cols)) / 1.1f);
    if (t.font < 7.0f) return {};
    const float room = 80.0f * p.f->scale, gap = 4.0f * p.f->scale;
    for (const std::string& q : queries) {
        t.rows.push_back(fitted(p, t.font, q, room));
        t.gutter = std::max(t.gutter, measure_at(p, t.font, t.rows.back()).x + gap);
    }
    for (const std::string& k : keys) {
        t.cols.push_back(fitted(p, t.font, k, room));
        t.header = std::max(t.header, measure_at(p, t.font, t.cols.back()).x + gap);
    }
    return t;
}

void draw_tip_labels(const Painter& p, const TipLabels& t, const Rect& pic) {
    const float ch = pic.h / static_cast<float>(std::max<size_t>(1, t.rows.size()));
    const float cw = pic.w / static_cast<float>(std::max<size_t>(1, t.cols.size()));
    const float gap = 4.0f * p.f->scale;
    for (size_t i = 0; i < t.rows.size(); ++i) {
        const ImVec2 size = measure_at(p, t.font, t.rows[i]);
        text_at(p, t.font, ImVec2(pic.x - gap - size.x, pic.y + (static_cast<float>(i) + 0.5f) * ch - size.y * 0.5f), p.pal.text, t.rows[i]);
    }
    for (size_t j = 0; j < t.cols.size(); ++j) {
        const float h = measure_at(p, t.font, t.cols[j]).y;
        text_standing(p, t.font, ImVec2(pic.x + (static_cast<float>(j) + 0.5f) * cw - h * 0.5f, pic.y - gap * 0.5f), p.pal.text, t.cols[j]);
    }
}

// The hovered thumbnail, larger, with its tokens, its numbers in words and the card's
// claims in full.
void draw_tooltip(const Painter& p, float top, const OverviewThumb& t, const std::string& title) {
    ImGui::BeginTooltip();
    ImGui::TextUnformatted(title.c_str());
    const float side = 220.0f * p.f->scale;
    const TipLabels labels = tip_labels(p, t.picture, side);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImGui::Dummy(ImVec2(labels.gutter + side, labels.header + side));
    Painter tip = p;
    tip.dl = ImGui::GetWindowDrawList();
    const Rect picture{at.x + labels.gutter, at.y + labels.header, side, side};
    draw_picture(tip, t.picture, top, picture);
    draw_tip_labels(tip, labels, picture);
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + side * 1.6f);
    if (t.peak.counted_rows == 0) text_wrapped(text::tr("overview.peak_none"));
    else
        text_wrapped(text::trf("overview.tip.peak", {{"max", text::fixed(static_cast<double>(t.peak.mean_max), 3)},
                                                                 {"entropy", text::fixed(static_cast<double>(t.peak.mean_entropy), 3)},
                                                                 {"word", focus_word(t.peak.mean_entropy)}}).c_str());
    for (const Message& claim : t.claims) text_wrapped(text::trf("overview.tip.claim", {{"claim", text::render(claim)}}).c_str());
    ImGui::TextDisabled("%s", text::tr(t.ref.layer < 0 ? "overview.tip.mean" : "overview.tip.click"));
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

// The mouse: hover, click (open) and Ctrl+click (select). Returns the layer to open, or -1.
int point_at_thumbs(const CanvasFrame& frame, CanvasUi& ui, const OverviewGrid& grid, const OverviewLayout& lay) {
    ui.overview_hovered = -1;
    if (!frame.interactive || !ImGui::IsWindowHovered()) return -1;
    const ImVec2 m = ImGui::GetMousePos();
    ui.overview_hovered = cell_at(lay, m.x, m.y);
    if (ui.overview_hovered < 0 || !ImGui::IsMouseClicked(ImGuiMouseButton_Left)) return -1;
    const int thumb = lay.cells[static_cast<size_t>(ui.overview_hovered)].thumb;
    if (thumb < 0) return -1;  // the mean opens nothing
    const HeadRef ref = grid.thumbs[static_cast<size_t>(thumb)].ref;
    std::vector<HeadRef>& selected = ui.overview_selected;
    if (ImGui::GetIO().KeyCtrl) {
        const auto at = std::find(selected.begin(), selected.end(), ref);
        if (at == selected.end()) selected.push_back(ref);
        else selected.erase(at);
        return -1;
    }
    ui.enlarged_head = ref.head;
    ui.overview = false;
    ui.overview_hovered = -1;
    return ref.layer;
}

// A colour bar from 0 to the grid's largest weight, right-aligned on the line at `y`.
void draw_legend_bar(const Painter& p, float top, float right, float y) {
    const float s = p.f->scale, size = p.small_size(), bar_w = 120.0f * s, bar_h = size * 0.7f;
    const std::string lo = "0", hi = text::fixed(static_cast<double>(top), 2);
    const float hi_w = measure_at(p, size, hi).x;
    const float x1 = right - hi_w - 4.0f * s, x0 = x1 - bar_w;
    constexpr int kSteps = 24;
    for (int i = 0; i < kSteps; ++i) {
        const float a = x0 + bar_w * static_cast<float>(i) / kSteps, b = x0 + bar_w * static_cast<float>(i + 1) / kSteps;
        p.dl->AddRectFilled(ImVec2(a, y + (size - bar_h) * 0.5f), ImVec2(b + 0.5f, y + (size + bar_h) * 0.5f),
                            pack_rgba(sample_colormap(ColormapKind::Sequential, (static_cast<float>(i) + 0.5f) / kSteps)));
    }
    text_at(p, size, ImVec2(x0 - measure_at(p, size, lo).x - 4.0f * s, y), p.pal.dim_text, lo);
    text_at(p, size, ImVec2(x1 + 4.0f * s, y), p.pal.dim_text, hi);
}

// The caption and the hint above the grid; returns their height.
float draw_header(const Painter& p, const OverviewGrid& grid, const Rect& body, int selected) {
    const CanvasFrame& frame = *p.f;
    const float s = frame.scale, line_h = p.small_size() + 4.0f * s;
    const std::string step(step_name(grid.step));
    const std::string caption = frame.trace->model.present()
                                    ? text::trf("overview.caption_model", {{"model", frame.trace->model.name}, {"step", step}, {"layers", grid.layers}, {"heads", grid.heads}})
                                    : text::trf("overview.caption", {{"step", step}, {"heads", grid.heads}});
    float y = body.y;
    if (!frame.key_beside) {
        p.text(frame.fonts.regular, ImVec2(body.x, y), p.pal.text, fitted(p, p.font_size(), caption, body.w));
        y += p.font_size() + 6.0f * s;
    }
    draw_legend_bar(p, colour_top(frame, grid), body.right(), y);
    const float hint_w = body.w - 170.0f * s;
    const std::string hint = selected >= 2 ? text::trf("overview.hint_mean", {{"count", selected}}) : text::tr("overview.hint");
    for (const std::string& line : wrap_notes(p, {hint}, std::max(40.0f * s, hint_w))) {
        p.text(frame.fonts.small, ImVec2(body.x, y), p.pal.dim_text, line);
        y += line_h;
    }
    return y - body.y + 6.0f * s;
}

OverviewStyle overview_style(const Painter& p, const OverviewGrid& grid) {
    OverviewStyle style;
    // Room under each picture for its numbers, and two lines more where the card claims
    // something (one per claim for a head with more than two).
    size_t claims = 0;
    for (const OverviewThumb& t : grid.thumbs) claims = std::max(claims, t.claims.size());
    style.wanted_lines = claims == 0 ? 1 : 1 + static_cast<int>(std::max<size_t>(2, claims));
    const float s = p.f->scale;
    style.font_px = p.small_size();
    style.min_font_px = min_label_font(p);
    style.gap = 12.0f * s;
    style.min_side = 24.0f * s;
    style.max_side = 320.0f * s;
    return style;
}

// The grid itself; returns the layer a click opened, or -1.
int draw_grid(const Painter& p, CanvasUi& ui, const OverviewGrid& grid, const Rect& body) {
    const CanvasFrame& frame = *p.f;
    std::vector<HeadRef> selected;  // the selection's heads this grid has
    for (const HeadRef& ref : ui.overview_selected)
        if (grid.find(ref)) selected.push_back(ref);
    std::optional<OverviewThumb> mean = mean_of_heads(grid, selected);
    const float header_h = draw_header(p, grid, body, static_cast<int>(selected.size()));
    const Rect area{body.x, body.y + header_h, body.w, body.h - header_h};
    if (area.h < 16.0f || area.w < 16.0f) return -1;
    const OverviewLayout lay = overview_layout(grid.layers, grid.heads, mean.has_value(), area, overview_style(p, grid));
    const int opened = point_at_thumbs(frame, ui, grid, lay);
    if (opened >= 0 || !ui.overview) return opened;  // the canvas shows that head from the next frame
    const float s = frame.scale;
    const bool layers_shown = grid.layers > 1 || frame.trace->model.present();
    for (size_t i = 0; i < lay.cells.size(); ++i) {
        const OverviewCell& cell = lay.cells[i];
        const OverviewThumb* t = thumb_of(grid, cell, mean);
        if (!t) continue;
        draw_picture(p, t->picture, colour_top(frame, grid), cell.picture);
        const bool hovered = ui.overview_hovered == static_cast<int>(i);
        const bool chosen = std::find(selected.begin(), selected.end(), t->ref) != selected.end();
        const Rect& r = cell.picture;
        if (chosen || hovered || cell.thumb < 0)
            p.dl->AddRect(ImVec2(r.x - 2.0f * s, r.y - 2.0f * s), ImVec2(r.right() + 2.0f * s, r.bottom() + 2.0f * s),
                          chosen || cell.thumb < 0 ? p.pal.highlight : p.pal.text, 0.0f, 0, (chosen ? 3.0f : 1.5f) * s);
        else
            p.dl->AddRect(ImVec2(r.x, r.y), ImVec2(r.right(), r.bottom()), p.pal.frame);
        const std::string title = thumb_title(*t, static_cast<int>(selected.size()), layers_shown);
        draw_cell_text(p, lay, cell, title, *t, hovered || chosen);
        if (hovered) draw_tooltip(p, colour_top(frame, grid), *t, title);
        if (layout_report_enabled()) {  // where the window test clicks: overview.<layer>.<head>, overview.mean
            char rect[64];
            std::snprintf(rect, sizeof rect, " %.0f %.0f %.0f %.0f", r.x, r.y, r.right(), r.bottom());
            const std::string name = cell.thumb < 0 ? "mean" : std::to_string(t->ref.layer) + "." + std::to_string(t->ref.head);
            note_for_tests("item overview." + name + rect);
        }
    }
    return -1;
}

}  // namespace

CanvasRequests draw_overview(const CanvasFrame& frame, CanvasUi& ui, const Rect& area) {
    CanvasRequests requests;
    Painter p;
    p.dl = ImGui::GetWindowDrawList();
    p.f = &frame;
    p.pal = canvas_palette(frame.light);
    p.dl->PushClipRect(ImVec2(area.x, area.y), ImVec2(area.right(), area.bottom()), true);
    p.dl->AddRectFilled(ImVec2(area.x, area.y), ImVec2(area.right(), area.bottom()), p.pal.background);
    const float pad = (frame.presentation ? 6.0f : 12.0f) * frame.scale;
    const Rect body{area.x + pad, area.y + pad, area.w - 2.0f * pad, area.h - 2.0f * pad};
    const Step& shown = frame.trace->steps[static_cast<size_t>(frame.step)];
    const OverviewGrid* grid = frame.overview ? frame.overview->grid_for(shown.id) : nullptr;
    if (!grid) {
        // Not built yet (the canvas panel asks for it), or no step with weights to show.
        const char* why = frame.overview ? "overview.no_weights" : "overview.computing";
        float y = body.y;
        for (const std::string& line : wrap_notes(p, {text::tr(why)}, body.w)) {
            p.text(frame.fonts.small, ImVec2(body.x, y), p.pal.dim_text, line);
            y += p.small_size() + 4.0f * frame.scale;
        }
    } else {
        const int opened = draw_grid(p, ui, *grid, body);
        if (opened >= 0 && frame.trace->model.present()) requests.open_layer = opened;
    }
    p.dl->PopClipRect();
    return requests;
}

}  // namespace attn::gui
