// [SECTION] index
//   splitter(s)        draggable bars between the side panels; they change the saved sizes
//   controls_tab       the folded controls of a narrow window
//   draw_slot          draws the registered views of one slot (view_registry.cpp)
//   presentation       title strip + canvas + explanation (their views: view_presentation_footer.h)
//   canvas_alone       a canvas-only export: the title strip above the canvas
//   draw_frame         the normal layout: the dock slots (layout.cpp dock_rects) and their views
#include "app/gui/views/frame.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "app/gui/kit/cjk_wrap.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/gui/views/canvas/view_canvas_panel.h"
#include "app/gui/views/panels/view_presentation_footer.h"
#include "app/gui/views/panels/view_presenter.h"
#include "app/gui/views/panels/view_title_strip.h"
#include "app/gui/views/panels/view_token_strip.h"
#include "app/gui/views/panels/view_tour.h"
#include "app/gui/views/view_registry.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

// A bar between two panels that can be dragged (vertical: sideways, else up and down).
// Returns true while dragged, with the mouse's movement since the press in `delta`.
bool splitter(const char* id, float x, float y, float w, float h, bool vertical, float& delta) {
    place_window(x, y, w, h);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
    ImGui::Begin(id, nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar |
                                  ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PopStyleVar(2);
    ImGui::SetCursorScreenPos(ImVec2(x, y));
    ImGui::InvisibleButton("##bar", ImVec2(std::max(1.0f, w), std::max(1.0f, h)));
    const bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
    if (hovered || active) ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
    const ImU32 color = ImGui::GetColorU32(active ? ImGuiCol_SeparatorActive : (hovered ? ImGuiCol_SeparatorHovered : ImGuiCol_Separator));
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(x, y), ImVec2(x + w, y + h), color);
    const ImVec2 drag = ImGui::GetMouseDragDelta(ImGuiMouseButton_Left, 0.0f);
    delta = vertical ? drag.x : drag.y;
    ImGui::End();
    if (!active) return false;
    ImGui::ResetMouseDragDelta(ImGuiMouseButton_Left);
    return true;
}

// The splitter bars; dragging changes the saved sizes (in font heights, so they follow the
// UI scale), returned as a settings edit like a view's.
void splitters(const DockRects& d, float bar, float fs, const UiSettings& shown, Actions& out) {
    UiSettings settings = shown;
    bool dragged = false;
    float dx = 0.0f;
    const float top = d.tab.y, column_h = d.tab.h;
    const float left_w = d.side.left, right_w = d.side.right, right_x = d.right_top.x;
    if (!d.side.left_collapsed && splitter("##split_left", left_w, top, bar, column_h, true, dx)) {
        settings.left_panel_em = std::clamp((left_w + dx) / fs, 10.0f, 60.0f);
        dragged = true;
    }
    if (splitter("##split_right", right_x - bar, top, bar, column_h, true, dx)) {
        settings.right_panel_em = std::clamp((right_w - dx) / fs, 10.0f, 60.0f);
        dragged = true;
    }
    if (splitter("##split_explain", right_x, top + d.side.explain_h, right_w, bar, false, dx)) {
        settings.explain_fraction = std::clamp((d.side.explain_h + dx) / std::max(1.0f, column_h), 0.15f, 0.85f);
        dragged = true;
    }
    if (dragged && !out.settings_edit) out.settings_edit = std::move(settings);  // the first edit wins, as in Actions
}

// A narrow tab; the controls open over the canvas and close with the tab again.
void controls_tab(const Rect& r, bool& controls_open, float fs) {
    place_window(r.x, r.y, r.w, r.h);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(2, 4));
    ImGui::Begin("##controls_tab", nullptr, kTiledPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    ImGui::PopStyleVar();
    if (ImGui::Button(controls_open ? "<##tab" : ">##tab", ImVec2(-1.0f, fs * 3.0f))) controls_open = !controls_open;
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text::tr(controls_open ? "controls.tab.hide" : "controls.tab.show"));
    ImGui::End();
}

// The registered views of `slot`: docked ones in their own window over `area`, the others
// open their windows themselves. Views that need the mouse are left out of pictures.
// The views get the state read-only (and the UiState writable); what they edited is
// applied once the slot is drawn, so the next slot draws it in the same frame (a dialog
// the menu opens appears as the menu closes, as it did when views wrote in place).
void draw_slot(DockSlot slot, AppState& state, UiState& ui, const FrameContext& ctx, const Rect& area, Actions& out) {
    for (const ViewSpec& view : registered_views()) {
        if (view.slot != slot || (view.interactive_only && ctx.offscreen)) continue;
        if (!view.window) {
            out |= view.draw(std::as_const(state), ui, ctx, area);
            continue;
        }
        place_window(area.x, area.y, area.w, area.h);
        if (view.edge_to_edge) ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
        ImGui::Begin(window_name(view), nullptr, kTiledPanelFlags | view.flags);
        if (view.edge_to_edge) ImGui::PopStyleVar();
        out |= view.draw(std::as_const(state), ui, ctx, area);
        ImGui::End();
    }
    record_slot_element(ui.elements, slot, area);  // where a tour slide can point (view_tour.h)
    apply_edits(state, out);
}

// With a generation on screen, the token strip (view_token_strip.h) along the top of
// `canvas`, which keeps the rest. Compare mode's columns have no strip.
Rect token_strip_above(AppState& state, UiState& ui, const FrameContext& ctx, Rect canvas, Actions& out) {
    const float strip_h = state.compare.on ? 0.0f : std::min(token_strip_height(state.results, ui.playback.step()), canvas.h * 0.5f);
    if (strip_h <= 0.0f) return canvas;
    draw_slot(DockSlot::TokenStrip, state, ui, ctx, Rect{canvas.x, canvas.y, canvas.w, strip_h}, out);
    canvas.y += strip_h;
    canvas.h -= strip_h;
    return canvas;
}

void presentation(AppState& state, UiState& ui, Actions& out, const FrameContext& ctx, float w, float h) {
    // While the pen is on its palette sits at the strip's right end (view_presenter.h).
    const bool palette = ui.present.pen && ui.presentation && !ctx.offscreen;
    PresentationLayout layout;
    layout.strip = measure_title_strip(state, ctx, w, h, true, palette ? pen_palette_size() : ImVec2(0, 0));
    // The explanation, like the title strip, keeps its UI-scale-1 type (strip.text_scale).
    layout.footer = fit_footer(layout.strip.words.explanation, w, h / 3.0f, layout.strip.text_scale);
    // The explanation goes beside the picture, with its caption and legend, when that
    // gives the picture clearly bigger cells (a 2x2 grid of heads on a 4:3 projector).
    const float header_h = layout.strip.height, side_w = std::floor(w * 0.3f);
    const Rect under{0, header_h, w, h - header_h - layout.footer.height}, left{0, header_h, w - side_w, h - header_h};
    // Compare mode's three columns each need their caption and legend: the explanation stays under them.
    const PresentationFit fit = !layout.strip.title.empty() && ui.presentation && !state.compare.on
                                    ? fit_presentation(state, ui, ctx, w, h, header_h, layout.footer.height, side_w)
                                    : PresentationFit{};
    layout.beside = fit.beside;
    FrameContext canvas_ctx = ctx;
    canvas_ctx.key_beside = fit.beside;
    canvas_ctx.canvas_type = fit.canvas_type;
    canvas_ctx.presentation = &layout;
    draw_slot(DockSlot::PresentTitle, state, ui, canvas_ctx, Rect{0, 0, w, header_h}, out);
    draw_slot(DockSlot::Center, state, ui, canvas_ctx, token_strip_above(state, ui, ctx, fit.beside ? left : under, out), out);
    const Rect footer = fit.beside ? Rect{left.w, header_h, side_w, h - header_h} : Rect{0, h - layout.footer.height, w, layout.footer.height};
    draw_slot(DockSlot::PresentFooter, state, ui, canvas_ctx, footer, out);
}

// A canvas-only export: the title strip above the canvas, so the picture stands alone on
// a slide.
void canvas_alone(AppState& state, UiState& ui, Actions& out, const FrameContext& ctx, float w, float h) {
    PresentationLayout layout;
    layout.strip = measure_title_strip(state, ctx, w, h, false);
    FrameContext titled = ctx;
    titled.presentation = &layout;
    draw_slot(DockSlot::PresentTitle, state, ui, titled, Rect{0, 0, w, layout.strip.height}, out);
    draw_slot(DockSlot::Center, state, ui, ctx, Rect{0, layout.strip.height, w, h - layout.strip.height}, out);
}

// The normal layout. The splitter bars and the controls tab belong to the frame, not to a
// view, but follow the same rule: the bars return the panel sizes as a settings edit, the
// tab writes controls_open (UI state).
void docked(AppState& state, UiState& ui, Actions& out, const FrameContext& ctx, float w, float h) {
    // The menu bar first: its height is the top of every column.
    draw_slot(DockSlot::MenuBar, state, ui, ctx, Rect{}, out);
    draw_slot(DockSlot::Dialogs, state, ui, ctx, Rect{}, out);
    const float fs = ImGui::GetFontSize();
    // Splitter bars sit in gaps between the panels (no overlap, so window order never hides them).
    const float bar = ctx.offscreen ? 0.0f : std::max(4.0f, fs * 0.3f);
    const float timeline_h = ImGui::GetFrameHeightWithSpacing() * 2.0f + ImGui::GetStyle().WindowPadding.y * 2.0f + fs * 0.6f;
    const UiSettings& saved = state.settings;
    const DockRects d = dock_rects(w, h, ImGui::GetFrameHeight(), fs, timeline_h, fs * 1.6f, bar,
                                   saved.left_panel_em, saved.right_panel_em, saved.explain_fraction);
    if (!ctx.offscreen) splitters(d, bar, fs, state.settings, out);
    // The slide list of a lesson being made, left of the canvas (and of the code panel).
    const SlideListSplit lesson = split_slide_list(d.center, state.jobs.lesson.open && !ctx.offscreen, fs, bar);
    if (lesson.list.w > 0.0f) draw_slot(DockSlot::SlideList, state, ui, ctx, lesson.list, out);
    const CenterSplit center = split_center(lesson.rest, ui.code.show && !ctx.offscreen, fs, bar);
    if (center.code.w > 0.0f) draw_slot(DockSlot::BesideCanvas, state, ui, ctx, center.code, out);
    draw_slot(DockSlot::Center, state, ui, ctx, token_strip_above(state, ui, ctx, center.canvas, out), out);
    if (d.side.left_collapsed) controls_tab(d.tab, ui.controls_open, fs);
    if (!d.side.left_collapsed || ui.controls_open) draw_slot(DockSlot::Left, state, ui, ctx, d.left, out);
    draw_slot(DockSlot::Bottom, state, ui, ctx, d.bottom, out);
    draw_slot(DockSlot::AboveBottom, state, ui, ctx, d.above_bottom, out);
    draw_slot(DockSlot::RightTop, state, ui, ctx, d.right_top, out);
    draw_slot(DockSlot::RightBottom, state, ui, ctx, d.right_bottom, out);
    draw_slot(DockSlot::StatusBar, state, ui, ctx, d.status, out);
}

}  // namespace

Actions draw_frame(AppState& state, const FrameContext& ctx) {
    Actions out;
    const ImVec2 display = ImGui::GetIO().DisplaySize;
    if (display.x <= 0.0f || display.y <= 0.0f) return out;
    refresh_difference(state, state.ui.playback.step());  // compare mode's A − B (state/compare.h)
    state.ui.elements.clear();  // the slots record this frame's (view_tour.h)
    if (ctx.canvas_only) canvas_alone(state, state.ui, out, ctx, display.x, display.y);
    else if (state.ui.presentation || ctx.presentation_header) presentation(state, state.ui, out, ctx, display.x, display.y);
    else docked(state, state.ui, out, ctx, display.x, display.y);
    apply_edits(state, out);
    return out;
}

}  // namespace attn::gui
