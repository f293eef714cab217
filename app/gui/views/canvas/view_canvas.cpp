// [SECTION] index
//   Painter helpers      text, measure, visible panels
//   (the split and the bands around the picture: view_canvas_bands.cpp)
//   (heatmap pieces: view_canvas_cells.cpp; axis labels: view_canvas_labels.cpp)
//   draw_canvas          header line, split, result, sources, legend, strip, mouse
#include "app/gui/views/canvas/view_canvas.h"
#include "app/gui/views/canvas/view_canvas_cache.h"
#include "app/gui/views/canvas/view_canvas_focus.h"
#include "app/gui/views/canvas/view_canvas_follow.h"
#include "app/gui/views/canvas/view_weight_lines.h"
#include "app/gui/views/canvas/view_overview.h"
#include "app/gui/views/canvas/view_canvas_notes.h"
#include "app/gui/views/canvas/view_canvas_rotation.h"
#include "app/gui/kit/cjk_wrap.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>
#include <vector>

#include "app/gui/display/colormap.h"
#include "app/gui/display/format.h"
#include "app/gui/display/head_groups.h"
#include "app/gui/views/canvas/view_annotations.h"
#include "app/gui/views/canvas/view_canvas_anim.h"
#include "app/gui/views/canvas/view_canvas_product.h"
#include "app/gui/views/canvas/view_storage.h"
#include "app/text/languages.h"
#include "core/masked_score.h"
#include "core/text_split.h"

namespace attn::gui {

// ------------------------------------------------------------ Painter helpers
void Painter::text(ImFont* font, ImVec2 pos, uint32_t color, const std::string& s) const {
    ImFont* use = font ? font : ImGui::GetFont();
    dl->AddText(use, use->FontSize * f->type, pos, color, s.c_str(), s.c_str() + s.size());
}

ImVec2 Painter::measure(ImFont* font, const std::string& s) const {
    ImFont* use = font ? font : ImGui::GetFont();
    return use->CalcTextSizeA(use->FontSize * f->type, FLT_MAX, 0.0f, s.c_str(), s.c_str() + s.size());
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

// ------------------------------------------------------------ draw_canvas
std::string canvas_caption(const CanvasFrame& frame, const CanvasUi& ui) {
    const Step& step = frame.trace->steps[static_cast<size_t>(frame.step)];
    const StepDisplay& sd = frame.model->steps[static_cast<size_t>(frame.step)];
    std::string caption = frame.caption_prefix + step.name() + "   " + step.tensor.shape_string();
    if (frame.trace->config.batch > 1) caption += "   " + text::trf("canvas.caption.item", {{"item", frame.model->batch_item}});
    if (sd.arrangement == Arrangement::Grid && ui.enlarged_head >= 0)
        caption += "   " + text::trf("canvas.caption.enlarged", {{"head", ui.enlarged_head}});
    return caption;
}


namespace {

// A right click on the hovered cell opens its menu (Follow; view_canvas_follow.h).
void open_cell_menu(CanvasUi& ui) {
    if (!ImGui::IsMouseClicked(ImGuiMouseButton_Right)) return;
    ui.follow.menu_cell = ui.hovered;
    ImGui::OpenPopup("##cell_menu");
}

// The painter of `frame`: palette and sizes from its type and scale.
Painter canvas_painter(const CanvasFrame& frame) {
    Painter p;  // p.dl stays null: only the callers that draw take the window's list
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
    for (const auto& t : frame.model->query_tokens)
        gutter = std::max(gutter, p.measure(frame.fonts.small, clip_label(frame.model->shown_token(t), 9)).x);
    p.style.row_gutter = gutter + 10.0f * s;
    return p;
}

}  // namespace

std::vector<std::string> caption_lines(const Painter& p, const std::string& caption, float width) {
    std::vector<std::string> lines;
    std::string line;
    const std::string gap = "   ";
    for (size_t at = 0; at < caption.size();) {
        const size_t end = std::min(caption.find(gap, at), caption.size());
        const std::string piece = caption.substr(at, end - at);
        at = end + gap.size();
        if (!line.empty() && p.measure(p.f->fonts.regular, line + gap + piece).x > width) {
            lines.push_back(line);
            line.clear();
        }
        if (line.empty() && p.measure(p.f->fonts.regular, piece).x > width) {
            // A piece wider than the line ("(B=1, H=2, L=5, S=5)" in a compare column) wraps at its spaces.
            std::vector<std::string> parts = wrap_cjk_lines(p.f->fonts.regular ? *p.f->fonts.regular : *ImGui::GetFont(), p.font_size(), piece, width);
            for (size_t i = 0; i + 1 < parts.size(); ++i) lines.push_back(parts[i]);
            line = parts.empty() ? "" : parts.back();
            continue;
        }
        line += (line.empty() ? "" : gap) + piece;
    }
    if (!line.empty()) lines.push_back(line);
    return lines;
}

namespace {

// The caption line over the picture: the shape caption (and notice), with the legend
// beside it when the line has room, else in a band under the heatmaps (`legend_h`). With
// the key beside the picture (presentation, frame.key_beside) there is no such line. A
// caption or notice wider than the canvas takes more lines; the legend's title wraps too.
struct TopLine {
    std::vector<std::string> caption;  // its lines
    std::vector<std::string> notice;   // the notice's lines, after the caption's last line or under it
    bool notice_beside = false;        // the notice is on the caption's (only) line
    float caption_w = 0, caption_h = 0, top_h = 0;
    float legend_w = 0, legend_block_w = 0, legend_bar_h = 0, legend_h = 0;
    int title_lines = 1;  // the legend title's lines
    bool legend_on_top = false;
    bool swatch_below = false;  // the masked cells' swatch under the legend, not beside it
    Rect legend_rect;
    // Where "numbers hidden" goes when the caption's line holds it (offset from the body's
    // top left); has_hidden_spot false: it needs a line of its own under the legend.
    bool has_hidden_spot = false;
    ImVec2 hidden_spot;
};
TopLine plan_top_line(const Painter& p, const CanvasUi& ui, const Rect& body) {
    const CanvasFrame& frame = *p.f;
    const StepDisplay& sd = p.display(frame.step);
    const float s = frame.scale, line_h = p.font_size() + 2.0f * s;
    TopLine t;
    if (frame.key_beside) return t;
    // Shape line: the tensor's name and named dimensions, and what is shown of it.
    const float text_w = std::max(40.0f * s, body.w - frame.top_right_reserved);
    t.caption = caption_lines(p, canvas_caption(frame, ui), text_w);
    for (const std::string& line : t.caption) t.caption_w = std::max(t.caption_w, p.measure(frame.fonts.regular, line).x);
    if (!frame.notice.empty()) {
        const float beside_w = t.caption_w + 16.0f * s + p.measure(frame.fonts.regular, frame.notice).x;
        t.notice_beside = t.caption.size() == 1 && beside_w <= text_w;
        if (t.notice_beside) t.caption_w = beside_w;
        else t.notice = wrap_cjk_lines(frame.fonts.regular ? *frame.fonts.regular : *ImGui::GetFont(), p.font_size(), frame.notice, body.w);
    }
    const int text_lines = static_cast<int>(t.caption.size() + t.notice.size());
    // The colour legend sits beside the caption when the line has room (the rows below
    // then keep the height a band of their own would take), else under the heatmaps.
    t.legend_w = std::min(260.0f * s, body.w * 0.4f);
    t.legend_bar_h = 10.0f * s;
    t.legend_block_w = t.legend_w;
    if (sd.masked_cells > 0 || sd.masked_zero_cells > 0)
        t.legend_block_w += p.measure(frame.fonts.small, masked_legend_label(frame, sd.masked_cells > 0)).x + t.legend_bar_h * 3.6f + 18.0f * s;
    // On the caption line the bar may shrink to 150 px (scaled) to fit beside a long caption.
    const float top_room = body.w - t.caption_w - 24.0f * s - (t.legend_block_w - t.legend_w) - frame.top_right_reserved;
    t.legend_on_top = text_lines == 1 && top_room >= std::min(t.legend_w, 150.0f * s);
    if (t.legend_on_top) t.legend_w = std::min(t.legend_w, top_room);
    t.title_lines = static_cast<int>(std::max<size_t>(1, legend_title_lines(p, sd, t.legend_on_top ? t.legend_w : body.w).size()));
    const float title_h = static_cast<float>(t.title_lines) * legend_line_h(p);
    t.caption_h = static_cast<float>(text_lines) * line_h + 6.0f * s;
    t.legend_h = title_h - 2.0f + p.small_size() + t.legend_bar_h + 6.0f * s;
    // Under the picture, the masked cells' swatch goes left of the bar when it fits there,
    // else on a line of its own under the bar's numbers (a narrow compare column).
    t.swatch_below = !t.legend_on_top && t.legend_block_w > t.legend_w && t.legend_block_w > body.w;
    if (t.swatch_below) t.legend_h += t.legend_bar_h * 1.6f + 4.0f * s;
    t.top_h = t.legend_on_top ? std::max(t.caption_h, title_h - 2.0f + t.legend_bar_h + p.small_size() + 6.0f * s) : t.caption_h;
    if (t.legend_on_top) {
        t.legend_rect = Rect{body.right() - frame.top_right_reserved - t.legend_w, body.y + title_h, t.legend_w, t.legend_bar_h};
        t.legend_h = 0.0f;
    }
    // "numbers hidden" under the caption when the legend beside it makes that line two rows
    // tall, else after the caption when it has room (measured, so it never runs into the
    // legend or the head selector), else on a line of its own (planned by draw_canvas).
    const float hidden_w = p.measure(frame.fonts.small, text::tr("canvas.numbers_hidden")).x;
    const float limit = t.legend_on_top ? t.legend_rect.x - (t.legend_block_w - t.legend_w) - 12.0f * s - body.x : text_w;
    if (text_lines == 1 && t.top_h >= t.caption_h + p.small_size() && hidden_w <= limit) {
        t.has_hidden_spot = true;
        t.hidden_spot = ImVec2(0.0f, p.font_size() + 4.0f * s);
    } else if (text_lines == 1 && t.caption_w + 16.0f * s + hidden_w <= limit) {
        t.has_hidden_spot = true;
        t.hidden_spot = ImVec2(t.caption_w + 16.0f * s, (p.font_size() - p.small_size()) * 0.5f);
    }
    return t;
}

// Draws the caption's and notice's lines from the top of `body`.
void draw_top_line(const Painter& p, const TopLine& t, const Rect& body) {
    const CanvasFrame& frame = *p.f;
    const float line_h = p.font_size() + 2.0f * frame.scale;
    float y = body.y;
    for (const std::string& line : t.caption) {
        p.text(frame.fonts.regular, ImVec2(body.x, y), p.pal.text, line);
        y += line_h;
    }
    if (t.notice_beside)
        p.text(frame.fonts.regular, ImVec2(body.x + t.caption_w - p.measure(frame.fonts.regular, frame.notice).x, body.y), p.pal.notice, frame.notice);
    for (const std::string& line : t.notice) {
        p.text(frame.fonts.regular, ImVec2(body.x, y), p.pal.notice, line);
        y += line_h;
    }
}

// The height of a line of its own for the cells' note (cell_numbers_note: "numbers
// hidden", or the unit of scaled differences) when the picture planned in `body` (with the
// legend's band `legend_h` under it) needs one, else 0. "Numbers hidden" with a spot on
// the caption's line (`hidden_spot`) needs none.
float hidden_note_height(const Painter& p, const CanvasUi& ui, const Rect& body, float legend_h, bool hidden_spot) {
    if (!p.f->show_values) return 0.0f;
    const CellSize cell = result_cell_size(p, ui, plan_bands(p, ui, body, legend_h));
    if (cell.w <= 0.0f) return 0.0f;
    const NumberFormat format = cell_number_format(p, p.f->step, cell.w, cell.h);
    const std::string note = cell_numbers_note(format);
    if (note.empty() || (format.decimals < 0 && hidden_spot)) return 0.0f;
    const size_t lines = wrap_notes(p, {note}, body.w).size();
    return static_cast<float>(lines) * (p.small_size() + 2.0f) + 4.0f * p.f->scale;
}

// The canvas's margin: less in presentation, where the screen is the picture's.
float canvas_pad(const CanvasFrame& frame) { return (frame.presentation ? 6.0f : 12.0f) * frame.scale; }

// The step's result: a projection as its matrix product (X, W^T, b, Y), anything else as
// the result with its sources in a column beside it (and the chosen head's focus column).
ResultDrawn draw_result_and_sources(const Painter& p, CanvasUi& ui, const Rect& body, const CanvasBands& bands) {
    // Projections read as a matrix product (X, W^T, b, Y); everything else as the result
    // with its sources in a column beside it.
    const CanvasFrame& frame = *p.f;
    const StepDisplay& sd = p.display(frame.step);
    const Step& step = p.step(frame.step);
    const float s = frame.scale, focus_h = bands.focus_h;
    ResultDrawn drawn;
    // (Compare mode's bare columns draw the result alone: three products side by side are unreadable.)
    if (step.kind != StepKind::Projection || frame.bare || !draw_product(p, ui, body, drawn)) {
        const float column_w = focus_h > 0.0f ? focus_column_width(p, sd) : 0.0f;
        const CanvasSplit split = split_result(p, ui, body, bands.sources, column_w);
        Rect result_area = split.result;
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
    return drawn;
}

// The cells' note (cell_numbers_note): "numbers hidden" on the caption's line when it has a
// spot, else (and the unit of scaled numbers always) on a line of its own under the picture.
void draw_numbers_hidden_note(const Painter& p, const TopLine& top, const ResultDrawn& drawn, const Rect& top_left, const Rect& body,
                              float legend_h, float hidden_h, const NumberFormat& format) {
    const CanvasFrame& frame = *p.f;
    const float s = frame.scale;
    const bool spot = top.has_hidden_spot && format.decimals < 0;
    ImVec2 at(drawn.layout.bounds.x, drawn.layout.bounds.bottom() + 2.0f * s);
    if (spot) at = ImVec2(top_left.x + top.hidden_spot.x, top_left.y + top.hidden_spot.y);
    else if (hidden_h > 0.0f) at = ImVec2(body.x, body.bottom() + legend_h - hidden_h + 2.0f * s);
    // On its own line(s) it wraps to the canvas's width (a compare column is narrow).
    const float width = spot ? FLT_MAX : body.w;
    for (const std::string& line : wrap_notes(p, {cell_numbers_note(format)}, width)) {
        p.text(frame.fonts.small, at, p.pal.dim_text, line);
        at.y += p.small_size() + 2.0f;
    }
}

// Pinned and hovered cells are outlined; while painting, the hovered outline covers what
// a click would paint.
void outline_pinned_and_hovered(const Painter& p, const CanvasUi& ui, const ResultDrawn& drawn, bool painting) {
    const CanvasFrame& frame = *p.f;
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
            if (ui.paint_mode && painting && ref == ui.hovered) {
                // What a click would paint: with Shift the query row, with Ctrl or Alt the key column.
                const ImGuiIO& io = ImGui::GetIO();
                const PaintReach reach = paint_reach(io.KeyShift, io.KeyCtrl, io.KeyAlt);
                if (reach == PaintReach::Row) outline = Rect{place.rect.x, outline.y, place.rect.w, outline.h};
                if (reach == PaintReach::Column) outline = Rect{outline.x, place.rect.y, outline.w, place.rect.h};
            }
            outline_rect(p, outline, 2.0f);
        }
    }
}

// Mouse: hover shows a cell, click pins it (or paints it), clicking a head's title enlarges it.
void handle_canvas_mouse(const Painter& p, CanvasUi& ui, const ResultDrawn& drawn, bool painting, CanvasRequests& requests) {
    const CanvasFrame& frame = *p.f;
    const StepDisplay& sd = p.display(frame.step);
    ui.hovered = CellRef{};
    if (!frame.interactive || !ImGui::IsWindowHovered()) return;
    const ImVec2 m = ImGui::GetMousePos();
    const CellHit hit = hit_test(drawn.layout, drawn.sizes, m.x, m.y);
    if (hit.panel >= 0) {
        const int panel = drawn.visible[static_cast<size_t>(hit.panel)];
        ui.hovered = CellRef{frame.step, panel, hit.row, hit.col};
        const int head = sd.panels[static_cast<size_t>(panel)].head;
        if (ui.paint_mode && painting) {
            // Painting: the click masks or unmasks (query row, key col); it pins nothing,
            // and waits for the step's animation to end (the cells are then where they are drawn).
            ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
            if (frame.progress >= 1.0f && ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
                const ImGuiIO& io = ImGui::GetIO();
                requests.paint = MaskPaint{hit.row, hit.col, paint_reach(io.KeyShift, io.KeyCtrl, io.KeyAlt)};
            }
            return;
        }
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) {
            ui.pinned = ui.hovered;
            if (head >= 0) ui.focus_head = head;  // a click chooses; hovering only previews
        }
        open_cell_menu(ui);
        if (ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) && sd.arrangement == Arrangement::Grid) {
            ui.enlarged_head = ui.enlarged_head >= 0 ? -1 : head;
        }
        return;
    }
    // A cell of X, W^T or b (projections): inspectable, and pinned by a click.
    for (const ResultDrawn::Operand& o : drawn.operands) {
        if (!o.rect.contains(m.x, m.y) || o.rows <= 0 || o.cols <= 0) continue;
        const int row = std::clamp(static_cast<int>((m.y - o.rect.y) / o.rect.h * static_cast<float>(o.rows)), 0, o.rows - 1);
        const int col = std::clamp(static_cast<int>((m.x - o.rect.x) / o.rect.w * static_cast<float>(o.cols)), 0, o.cols - 1);
        ui.hovered = CellRef{frame.step, o.panel, row, col, o.part};
        if (ImGui::IsMouseClicked(ImGuiMouseButton_Left)) ui.pinned = ui.hovered;
        open_cell_menu(ui);
        return;
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
}

}  // namespace

float canvas_result_cell(const CanvasFrame& frame, const CanvasUi& ui, const Rect& area) {
    if (!frame.trace || !frame.model || area.w < 8.0f || area.h < 8.0f) return 0.0f;
    if (frame.step < 0 || frame.step >= static_cast<int>(frame.model->steps.size())) return 0.0f;
    const Painter p = canvas_painter(frame);
    const float pad = canvas_pad(frame);
    Rect body{area.x + pad, area.y + pad, area.w - 2 * pad, area.h - 2 * pad};
    const TopLine top = plan_top_line(p, ui, body);
    body.y += top.top_h;
    body.h -= top.top_h;
    return result_cell(p, ui, plan_bands(p, ui, body, top.legend_h));
}

float draw_canvas_key(const CanvasFrame& frame, const CanvasUi& ui, const Rect& area) {
    if (!frame.trace || !frame.model || frame.step < 0 || frame.step >= static_cast<int>(frame.model->steps.size())) return 0.0f;
    Painter p = canvas_painter(frame);
    p.dl = ImGui::GetWindowDrawList();
    const StepDisplay& sd = p.display(frame.step);
    const float s = frame.scale;
    // The caption, one piece a line when the column is narrow ("attn_weights", "(B=1, H=4, ...)").
    float y = area.y;
    for (const std::string& line : caption_lines(p, canvas_caption(frame, ui), area.w)) {
        p.text(frame.fonts.regular, ImVec2(area.x, y), p.pal.text, line);
        y += p.font_size() + 2.0f * s;
    }
    // The legend under it, the whole column wide, and the masked cells' swatch under that.
    const float bar_h = 10.0f * s;
    y += 6.0f * s;
    const float title_h = static_cast<float>(std::max<size_t>(1, legend_title_lines(p, sd, area.w - 2.0f).size())) * legend_line_h(p);
    draw_legend(p, sd, Rect{area.x + 1.0f, y + title_h, area.w - 2.0f, bar_h}, false);
    y += title_h + p.small_size() + bar_h + 8.0f * s;
    if (sd.masked_cells > 0 || sd.masked_zero_cells > 0) {
        draw_masked_swatch(p, sd, ImVec2(area.x + 2.0f, y + bar_h * 0.3f), bar_h);
        y += bar_h * 1.6f + 8.0f * s;
    }
    return y - area.y;
}

CanvasRequests draw_canvas(const CanvasFrame& frame, CanvasUi& ui, const Rect& area) {
    CanvasRequests requests;
    ui.placed.clear();
    ui.columns.clear();  // compare mode refills them after its three columns
    ui.storage_rect = Rect{};
    if (!frame.trace || !frame.model || area.w < 8.0f || area.h < 8.0f) return requests;
    if (frame.step < 0 || frame.step >= static_cast<int>(frame.model->steps.size())) return requests;
    if (frame.show_overview) return draw_overview(frame, ui, area);  // View > Overview (view_overview.h)
    if (shows_weight_lines(frame)) return draw_weights_as(frame, ui, area);  // View > Weights as (view_weight_lines.h)
    Painter p = canvas_painter(frame);
    p.dl = ImGui::GetWindowDrawList();
    const float s = frame.scale;
    p.dl->PushClipRect(ImVec2(area.x, area.y), ImVec2(area.right(), area.bottom()), true);
    p.dl->AddRectFilled(ImVec2(area.x, area.y), ImVec2(area.right(), area.bottom()), p.pal.background);

    const StepDisplay& sd = p.display(frame.step);
    const float pad = canvas_pad(frame);
    Rect body{area.x + pad, area.y + pad, area.w - 2 * pad, area.h - 2 * pad};
    const TopLine top = plan_top_line(p, ui, body);
    const float top_h = top.top_h, legend_w = top.legend_w, legend_bar_h = top.legend_bar_h;
    const bool legend_on_top = top.legend_on_top;
    const Rect& legend_rect = top.legend_rect;
    const Rect top_left = body;
    if (!frame.key_beside) draw_top_line(p, top, body);
    body.y += top_h;
    body.h -= top_h;
    // "numbers hidden" with no room on the caption's line gets a line of its own under the
    // legend, planned with the bands (never drawn over the legend's words).
    float legend_h = top.legend_h;
    const float hidden_h = frame.key_beside ? 0.0f : hidden_note_height(p, ui, body, legend_h, top.has_hidden_spot);
    legend_h += hidden_h;
    const CanvasBands bands = plan_bands(p, ui, body, legend_h);
    const float paint_h = bands.paint_h, focus_h = bands.focus_h, notes_h = bands.notes_h, rotation_h = bands.rotation_h;
    const bool strip = bands.strip;
    const std::vector<std::string>& more_notes = bands.more_notes;
    const float more_notes_h = bands.more_notes_h;
    const Rect paint_area{body.x, body.y, body.w, paint_h};
    const Rect strip_area{body.x, body.bottom() - bands.strip_h, body.w, bands.strip_h};
    body = bands.body;
    // Everything below the heatmaps (legend, readouts, notes, dials, strip) stays uncovered.
    ui.pictures_bottom = body.bottom();
    const Rect focus_area{body.x, body.bottom() + legend_h, body.w, focus_h};
    const Rect notes_area{body.x, focus_area.bottom(), body.w, notes_h};
    const Rect more_notes_area{body.x, notes_area.bottom(), body.w, more_notes_h};
    const Rect rotation_area{body.x, more_notes_area.bottom(), body.w, rotation_h};

    const ResultDrawn drawn = draw_result_and_sources(p, ui, body, bands);

    draw_painted_cells(p, drawn);
    draw_new_cache_rows(p, drawn);  // k_cache / v_cache: the rows this step appended (view_canvas_cache.h)
    ui.placed = placed_matrices(frame, drawn);  // the pen's drawings follow them (view_annotations.h)
    // Numbers that do not fit are hidden for the whole step, and the canvas says so: on the
    // caption line when it has room, else under the picture.
    ui.result_cell = drawn.layout.panels.empty() ? 0.0f : std::min(drawn.layout.panels.front().cell_w, drawn.layout.panels.front().cell_h);
    const bool noted = frame.show_values && !drawn.layout.panels.empty() && frame.progress >= 1.0f;
    const NumberFormat format = noted ? cell_number_format(p, frame.step, drawn.layout.panels.front().cell_w, drawn.layout.panels.front().cell_h)
                                      : NumberFormat{};
    ui.numbers_hidden = noted && format.decimals < 0;
    if (noted && !cell_numbers_note(format).empty()) draw_numbers_hidden_note(p, top, drawn, top_left, body, legend_h, hidden_h, format);
    outline_pinned_and_hovered(p, ui, drawn, paint_h > 0.0f);
    draw_follow_cells(p, ui, drawn);  // the followed cell's lineage (Follow)

    if (!frame.key_beside) {
        const float title_h = static_cast<float>(top.title_lines) * legend_line_h(p);
        const Rect bar = legend_on_top ? legend_rect : Rect{body.right() - legend_w, body.bottom() + title_h + 6.0f * s - 2.0f, legend_w, legend_bar_h};
        draw_legend(p, sd, bar, !top.swatch_below, legend_on_top ? legend_w : body.w);
        if (top.swatch_below) draw_masked_swatch(p, sd, ImVec2(body.x + 2.0f, bar.bottom() + p.small_size() + 4.0f * s + legend_bar_h * 0.3f), legend_bar_h);
    }
    if (strip) draw_storage_strip(p, strip_area);
    ui.storage_rect = strip ? strip_area : Rect{};
    if (focus_h > 0.0f) draw_focus_summary(p, sd, focus_area);
    if (notes_h > 0.0f) draw_notes(p, sd, notes_area);
    if (more_notes_h > 0.0f) draw_config_notes(p, more_notes, more_notes_area);
    if (rotation_h > 0.0f) draw_rotation_band(p, ui, rotation_area);
    p.dl->PopClipRect();
    if (paint_h > 0.0f) requests.clear_paint = draw_paint_bar(p, ui, paint_area);

    handle_canvas_mouse(p, ui, drawn, paint_h > 0.0f, requests);
    return requests;
}

}  // namespace attn::gui

