// [SECTION] index
//   Painter helpers      text, measure, visible panels
//   (heatmap pieces: view_canvas_cells.cpp; axis labels: view_canvas_labels.cpp)
//   draw_canvas          header line, split, result, sources, legend, strip, mouse
#include "app/gui/views/canvas/view_canvas.h"
#include "app/gui/views/canvas/view_canvas_focus.h"
#include "app/gui/views/canvas/view_canvas_follow.h"
#include "app/gui/views/canvas/view_weight_lines.h"
#include "app/gui/views/canvas/view_overview.h"
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

// The result and its sources side by side (the sources only when asked and there is room).
// `beside_w`: what the result keeps at its right (the "how peaked" column).
CanvasSplit split_result(const Painter& p, const CanvasUi& ui, const Rect& body, bool sources, float beside_w) {
    const Step& step = p.step(p.f->step);
    const StepDisplay& sd = p.display(p.f->step);
    const int source_count = sources && motion_for(step.kind).show_sources ? static_cast<int>(step.sources.size()) : 0;
    const bool enlarged = sd.arrangement == Arrangement::Grid && ui.enlarged_head >= 0;
    const int result_panels = sd.arrangement == Arrangement::Grid && !enlarged ? static_cast<int>(sd.panels.size()) : 1;
    // One enlarged head of (L, S) square cells at the full height (less its head bar and
    // key labels), with its row labels and the column beside it.
    float wants_w = 0.0f;
    if (enlarged && !sd.panels.empty() && sd.panels.front().rows > 0) {
        const Panel& pn = sd.panels.front();
        const float cells_h = std::max(0.0f, body.h - p.style.header - p.style.col_header);
        wants_w = cells_h * static_cast<float>(pn.cols) / static_cast<float>(pn.rows) + p.style.row_gutter + beside_w;
    }
    return split_canvas(body, body.w > 380.0f * p.f->scale ? source_count : 0, 24.0f * p.f->scale, result_panels, wants_w);
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
    const float column_w = bands.focus_h > 0.0f ? focus_column_width(p, sd) : 0.0f;
    Rect area = split_result(p, ui, bands.body, bands.sources, column_w).result;
    area.w -= column_w;
    const std::vector<int> visible = visible_panels(sd, ui);
    const StepLayout lay = layout_step(shown_arrangement(sd, visible), sd.joined, panel_sizes(sd, visible), area, p.style);
    return lay.panels.empty() ? 0.0f : std::min(lay.panels.front().cell_w, lay.panels.front().cell_h);
}

}  // namespace

CanvasBands plan_bands(const Painter& p, const CanvasUi& ui, const Rect& body, float legend_h) {
    if (p.f->bare) return bands_with(p, body, legend_h, static_cast<int>(Band::Count));
    if (!p.f->presentation) return bands_with(p, body, legend_h, 0);
    // Presentation: the picture comes first. Bands fold, least needed first, until its
    // cells are within 5% of the largest folding can give them (and hold a number, "-0.00"
    // in the small font): operands and readouts make way for the picture, at any UI scale.
    std::vector<float> cells;
    for (int folded = 0; folded <= static_cast<int>(Band::Count); ++folded) cells.push_back(result_cell(p, ui, bands_with(p, body, legend_h, folded)));
    const float numbers = p.measure(p.f->fonts.small, "-0.00").x + 6.0f * p.f->scale;
    const float wanted = std::max(numbers, 0.95f * *std::max_element(cells.begin(), cells.end()));
    return bands_with(p, body, legend_h, bands_to_fold(cells, wanted));
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

// The caption line over the picture: the shape caption (and notice), with the legend
// beside it when the line has room, else in a band under the heatmaps (`legend_h`). With
// the key beside the picture (presentation, frame.key_beside) there is no such line.
struct TopLine {
    std::string caption;
    float caption_w = 0, caption_h = 0, top_h = 0;
    float legend_w = 0, legend_block_w = 0, legend_bar_h = 0, legend_h = 0;
    bool legend_on_top = false;
    Rect legend_rect;
};
TopLine plan_top_line(const Painter& p, const CanvasUi& ui, const Rect& body) {
    const CanvasFrame& frame = *p.f;
    const StepDisplay& sd = p.display(frame.step);
    const float s = frame.scale;
    TopLine t;
    if (frame.key_beside) return t;
    t.legend_h = 2.0f * p.small_size() + 16.0f * s;
    // Shape line: the tensor's name and named dimensions, and what is shown of it.
    t.caption = canvas_caption(frame, ui);
    t.caption_w = p.measure(frame.fonts.regular, t.caption).x;
    if (!frame.notice.empty()) t.caption_w += 16.0f * s + p.measure(frame.fonts.regular, frame.notice).x;
    // The colour legend sits beside the caption when the line has room (the rows below
    // then keep the height a band of their own would take), else under the heatmaps.
    t.legend_w = std::min(260.0f * s, body.w * 0.4f);
    t.legend_bar_h = 10.0f * s;
    t.legend_block_w = t.legend_w;
    if (sd.masked_cells > 0 || sd.masked_zero_cells > 0)
        t.legend_block_w += p.measure(frame.fonts.small, masked_legend_label(frame, sd.masked_cells > 0)).x + t.legend_bar_h * 3.6f + 18.0f * s;
    // On the caption line the bar may shrink to 150 px (scaled) to fit beside a long caption.
    const float top_room = body.w - t.caption_w - 24.0f * s - (t.legend_block_w - t.legend_w) - frame.top_right_reserved;
    t.legend_on_top = top_room >= std::min(t.legend_w, 150.0f * s);
    if (t.legend_on_top) t.legend_w = std::min(t.legend_w, top_room);
    t.caption_h = p.font_size() + 8.0f * s;
    t.top_h = t.legend_on_top ? std::max(t.caption_h, 2.0f * p.small_size() + t.legend_bar_h + 6.0f * s) : t.caption_h;
    if (t.legend_on_top) {
        t.legend_rect = Rect{body.right() - frame.top_right_reserved - t.legend_w, body.y + p.small_size() + 2.0f, t.legend_w, t.legend_bar_h};
        t.legend_h = 0.0f;
    }
    return t;
}

// The canvas's margin: less in presentation, where the screen is the picture's.
float canvas_pad(const CanvasFrame& frame) { return (frame.presentation ? 6.0f : 12.0f) * frame.scale; }

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
    std::string line;
    const auto flush = [&] {
        if (line.empty()) return;
        p.text(frame.fonts.regular, ImVec2(area.x, y), p.pal.text, line);
        y += p.font_size() + 2.0f * s;
        line.clear();
    };
    const std::string caption = canvas_caption(frame, ui), gap = "   ";  // its pieces are 3 spaces apart
    for (size_t at = 0; at < caption.size();) {
        const size_t end = std::min(caption.find(gap, at), caption.size());
        const std::string piece = caption.substr(at, end - at);
        at = end + gap.size();
        if (!line.empty() && p.measure(frame.fonts.regular, line + gap + piece).x > area.w) flush();
        line += (line.empty() ? "" : gap) + piece;
    }
    flush();
    // The legend under it, the whole column wide, and the masked cells' swatch under that.
    const float bar_h = 10.0f * s;
    y += 6.0f * s;
    draw_legend(p, sd, Rect{area.x + 1.0f, y + p.small_size() + 2.0f, area.w - 2.0f, bar_h}, false);
    y += 2.0f * p.small_size() + bar_h + 8.0f * s;
    if (sd.masked_cells > 0 || sd.masked_zero_cells > 0) {
        draw_masked_swatch(p, sd, ImVec2(area.x + 2.0f, y + bar_h * 0.3f), bar_h);
        y += bar_h * 1.6f + 8.0f * s;
    }
    return y - area.y;
}

CanvasRequests draw_canvas(const CanvasFrame& frame, CanvasUi& ui, const Rect& area) {
    CanvasRequests requests;
    ui.placed.clear();
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
    const Step& step = p.step(frame.step);
    const float pad = canvas_pad(frame);
    Rect body{area.x + pad, area.y + pad, area.w - 2 * pad, area.h - 2 * pad};
    const TopLine top = plan_top_line(p, ui, body);
    const std::string& caption = top.caption;
    const float caption_w = top.caption_w, caption_h = top.caption_h, top_h = top.top_h, legend_h = top.legend_h;
    const float legend_w = top.legend_w, legend_block_w = top.legend_block_w, legend_bar_h = top.legend_bar_h;
    const bool legend_on_top = top.legend_on_top;
    const Rect& legend_rect = top.legend_rect;
    if (!frame.key_beside) {
        p.text(frame.fonts.regular, ImVec2(body.x, body.y), p.pal.text, caption);
        if (!frame.notice.empty())
            p.text(frame.fonts.regular, ImVec2(body.x + caption_w - p.measure(frame.fonts.regular, frame.notice).x, body.y), p.pal.notice, frame.notice);
    }
    body.y += top_h;
    body.h -= top_h;
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

    // Projections read as a matrix product (X, W^T, b, Y); everything else as the result
    // with its sources in a column beside it.
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

    draw_painted_cells(p, drawn);
    ui.placed = placed_matrices(frame, drawn);  // the pen's drawings follow them (view_annotations.h)
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
        else if (!frame.key_beside && x + p.measure(frame.fonts.small, hidden).x <= limit) at = ImVec2(x, caption_y + (p.font_size() - p.small_size()) * 0.5f);
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
    draw_follow_cells(p, ui, drawn);  // the followed cell's lineage (Follow)

    if (!frame.key_beside)
        draw_legend(p, sd, legend_on_top ? legend_rect
                                         : Rect{body.right() - legend_w, body.bottom() + p.small_size() + 6.0f * s, legend_w, legend_bar_h});
    if (strip) draw_storage_strip(p, strip_area);
    ui.storage_rect = strip ? strip_area : Rect{};
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
        open_cell_menu(ui);
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
        open_cell_menu(ui);
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

