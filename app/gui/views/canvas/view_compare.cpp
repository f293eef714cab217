#include "app/gui/views/canvas/view_compare.h"

#include <imgui.h>

#include <algorithm>
#include <string>
#include <vector>

#include "app/gui/display/format.h"
#include "app/gui/state/compare_contrasts.h"
#include "app/gui/views/canvas/view_canvas.h"
#include "app/gui/views/canvas/view_canvas_panel.h"
#include "app/gui/kit/cjk_wrap.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/text/languages.h"

namespace attn::gui {

using text::tr;
using text::trf;

namespace {

// The textures of `model`, baked by `cache` (re-baked when the model is another one).
void bake_from(HeatmapCache* cache, const std::shared_ptr<const DisplayModel>& model, bool light) {
    if (cache && cache->model() != model) cache->reset(model, canvas_palette(light).masked);
}

// What to look for in `contrast`: heads of random weights differ only by chance, so the
// heads contrast then points at the shapes instead of at patterns.
std::string look_key(const Contrast& contrast, bool random_weights) {
    const std::string id = contrast.id;
    if (id == "heads" && random_weights) return "compare.contrast.heads.look_random";
    return "compare.contrast." + id + ".look";
}

// The band above the columns: the contrast's name and what to look for, the saturation
// numbers of the "scale" contrast (folded away in presentation, where the pictures need
// the height), or why the contrast could not be set up (with, in the window, which side
// the controls change). Returns its height.
float draw_contrast_band(const CompareState& c, const Rect& area, bool pictures_only, bool random_weights, bool presenting) {
    std::string words;
    if (!c.contrast_error.empty()) words = text::render(c.contrast_error);
    else if (const Contrast* contrast = find_contrast(c.contrast))
        words = std::string(tr(("compare.contrast." + std::string(contrast->id) + ".name").c_str())) + ": " +
                tr(look_key(*contrast, random_weights).c_str());
    else words = tr("compare.band.columns");
    if (!c.contrast_note.empty()) words += "\n" + text::render(c.contrast_note);
    // Which side the controls change, in the window (a picture has no controls).
    if (c.contrast.empty() && !pictures_only) words += std::string("\n") + tr(c.editing_b ? "compare.band.editing_b" : "compare.band.editing_a");
    for (const SaturationRow& row : presenting ? std::vector<SaturationRow>{} : c.saturation)
        words += "\n" + trf("compare.saturation.row", {{"head_dim", row.head_dim},
                                                      {"scaled", format_value(row.scaled, 3)},
                                                      {"unscaled", format_value(row.unscaled, 3)}});
    const float pad = ImGui::GetFontSize() * 0.5f;
    ImGui::SetCursorScreenPos(ImVec2(area.x + pad, area.y + pad * 0.5f));
    ImGui::PushTextWrapPos(area.x + area.w - pad - ImGui::GetWindowPos().x);
    if (!c.contrast_error.empty()) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_PlotHistogram]);
    text_wrapped(words.c_str());
    if (!c.contrast_error.empty()) ImGui::PopStyleColor();
    ImGui::PopTextWrapPos();
    return ImGui::GetCursorScreenPos().y - area.y + pad * 0.5f;
}

// A column that has nothing to draw says why, in its middle.
void draw_column_message(const std::string& caption, const std::string& why, const Rect& r) {
    const float s = ImGui::GetFontSize();
    ImGui::SetCursorScreenPos(ImVec2(r.x + s, r.y + s));
    ImGui::TextUnformatted(caption.c_str());
    ImGui::SetCursorScreenPos(ImVec2(r.x + s, r.y + r.h * 0.4f));
    ImGui::PushTextWrapPos(r.x + r.w - s - ImGui::GetWindowPos().x);
    text_wrapped(why.c_str());
    ImGui::PopTextWrapPos();
}

// A cell of column `from_step` (B's index) named as the same cell of A's step `a_step`.
CellRef as_cell_of_a(CellRef cell, int a_step) {
    if (cell.valid()) cell.step = a_step;
    return cell;
}

// Draws one column with its own copy of the canvas UI and takes back what the mouse did.
void draw_column(const CanvasFrame& frame, const CanvasUi& shown, CanvasUi& merged, const Rect& r, int a_step) {
    CanvasUi own = shown;
    draw_canvas(frame, own, r);
    if (own.hovered.valid()) merged.hovered = as_cell_of_a(own.hovered, a_step);
    if (!(own.pinned == shown.pinned)) merged.pinned = as_cell_of_a(own.pinned, a_step);
    if (own.enlarged_head != shown.enlarged_head) merged.enlarged_head = own.enlarged_head;
    if (own.focus_head != shown.focus_head) merged.focus_head = own.focus_head;
    merged.result_cell = own.result_cell;
    merged.pictures_bottom = std::max(merged.pictures_bottom, own.pictures_bottom);
    if (merged.columns.empty()) merged.placed = own.placed;  // A's column
    merged.columns.push_back({r, own.placed});
}

// What the three columns show of the canvas UI. In presentation a grid of heads, a third of
// the screen wide, leaves cells too small for any number (tiny-lm's four heads of 9 x 9 at
// 1024x768: 10 px cells): when A and B have as many heads, each column shows the one head
// chosen (the enlarged one, else the focused one, as the head selector sets them). A
// contrast of head counts (A: one head, B: several) keeps B's grid: it is the point.
CanvasUi columns_ui(const CanvasUi& shown, const Trace& a, const Trace* b, const StepDisplay& step, bool presenting) {
    CanvasUi out = shown;
    const bool same_heads = b && b->config.H() == a.config.H();
    if (presenting && same_heads && step.arrangement == Arrangement::Grid && step.panels.size() > 1 && out.enlarged_head < 0)
        out.enlarged_head = shown.chosen_head();
    return out;
}

CanvasFrame column_frame(const Results& results, const Session& session, const UiState& ui, const AppState& state,
                         const FrameContext& ctx, const char* prefix_key) {
    CanvasFrame frame = canvas_frame_for(results, session, ui, state.settings, ctx);
    frame.bare = true;
    frame.key_beside = false;  // each column keeps its caption ("A", "B", "A − B") and its own legend
    frame.caption_prefix = std::string(tr(prefix_key)) + "   ";
    frame.weights_as = WeightsAs::Heatmap;  // three pictures of lines would not be read side by side
    frame.painted = nullptr;
    frame.notice.clear();
    return frame;
}

}  // namespace

Actions draw_compare_canvas(const AppState& state, UiState& ui, const FrameContext& ctx, const Rect& area) {
    const CompareState& c = state.compare;
    const Results& a = state.results;
    if (!a.trace || !a.model) return {};
    const bool presenting = state.ui.presentation || ctx.presentation_header;
    const float band_h = draw_contrast_band(c, area, ctx.offscreen, !a.trace->model.present(), presenting);
    const float gap = ImGui::GetFontSize() * 0.4f;
    const float column_w = (area.w - 2.0f * gap) / 3.0f;
    const float top = area.y + band_h, h = area.h - band_h;
    const Rect columns[3] = {{area.x, top, column_w, h},
                             {area.x + column_w + gap, top, column_w, h},
                             {area.x + 2.0f * (column_w + gap), top, column_w, h}};
    const int a_step = std::clamp(ui.playback.step(), 0, static_cast<int>(a.model->steps.size()) - 1);
    const bool b_ready = c.b_results.trace && c.b_results.model;
    const CanvasUi shown = columns_ui(ui.canvas, *a.trace, b_ready ? c.b_results.trace.get() : nullptr,
                                      a.model->steps[static_cast<size_t>(a_step)], state.ui.presentation);
    ui.canvas.hovered = CellRef{};
    ui.canvas.columns.clear();

    CanvasFrame frame_a = column_frame(a, state.session, ui, state, ctx, "compare.a");
    const Step& step = a.trace->steps[static_cast<size_t>(a_step)];
    const int b_step = b_step_of(state, a_step);
    // A and B print their cells' numbers by one rule, chosen over both (the same cell size
    // never hides A's numbers while B prints its own).
    if (b_ready && b_step >= 0) frame_a.number_peer = {c.b_results.trace.get(), c.b_results.model.get(), b_step};
    draw_column(frame_a, shown, ui.canvas, columns[0], a_step);

    if (!b_ready) {
        const std::string why = c.b_results.compute_error.empty() ? tr("compare.b_computing") : text::render(c.b_results.compute_error);
        draw_column_message(tr("compare.b"), why, columns[1]);
        return {};
    }
    if (b_step < 0) {
        draw_column_message(tr("compare.b"), trf("compare.missing_in_b", {{"step", step.name()}}), columns[1]);
    } else {
        bake_from(ctx.compare_b_cache, c.b_results.model, state.settings.light_theme);
        CanvasFrame frame_b = column_frame(c.b_results, c.b, ui, state, ctx, "compare.b");
        frame_b.cache = ctx.compare_b_cache;
        frame_b.step = b_step;
        frame_b.number_peer = {a.trace.get(), a.model.get(), a_step};
        draw_column(frame_b, shown, ui.canvas, columns[1], a_step);
    }

    const Message why = why_not_comparable(*a.trace, *c.b_results.trace, c.difference, a_step);
    if (!why.empty() || !c.difference_model || !c.difference.trace) {
        draw_column_message(tr("compare.difference"), why.empty() ? tr("compare.b_computing") : text::render(why), columns[2]);
        return {};
    }
    bake_from(ctx.difference_cache, c.difference_model, state.settings.light_theme);
    CanvasFrame frame_d = column_frame(a, state.session, ui, state, ctx, "compare.difference");
    frame_d.trace = c.difference.trace.get();
    frame_d.model = c.difference_model.get();
    frame_d.cache = ctx.difference_cache;
    frame_d.step = a_step;
    draw_column(frame_d, shown, ui.canvas, columns[2], a_step);
    return {};
}

}  // namespace attn::gui
