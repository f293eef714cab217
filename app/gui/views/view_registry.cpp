// The list of views (see view_registry.h for how to add one). Each line hands a view
// the parts of the state it draws (read-only) and its part of the UiState, nothing else.
#include "app/gui/views/view_registry.h"

#include <algorithm>

#include "app/gui/views/canvas/view_annotations.h"
#include "app/gui/views/canvas/view_canvas_panel.h"
#include "app/gui/views/canvas/view_compare.h"
#include "app/gui/views/inspector/view_compare_inspector.h"
#include "app/gui/views/panels/view_compare_menu.h"
#include "app/gui/views/panels/view_decode_notes.h"
#include "app/gui/views/panels/view_code.h"
#include "app/gui/views/controls/view_controls.h"
#include "app/gui/views/dialogs/view_dialogs.h"
#include "app/gui/views/panels/view_explain.h"
#include "app/gui/views/panels/view_hint.h"
#include "app/gui/views/controls/view_input_editor.h"
#include "app/gui/views/inspector/view_inspector.h"
#include "app/gui/views/panels/view_menu.h"
#include "app/gui/views/panels/view_presenter.h"
#include "app/gui/views/panels/view_slide_list.h"
#include "app/gui/views/panels/view_status.h"
#include "app/gui/views/panels/view_timeline.h"
#include "app/gui/views/panels/view_token_strip.h"
#include "app/gui/views/panels/view_tour.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

constexpr ImGuiWindowFlags kBare = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar;

}  // namespace

const std::vector<ViewSpec>& registered_views() {
    // window, titled, slot, extra flags, edge to edge, interactive only, draw
    static const std::vector<ViewSpec> views = {
        {nullptr, false, DockSlot::MenuBar, 0, false, false, [](const AppState& s, UiState& ui, const FrameContext&, const Rect&) {
             return draw_menu(s.session, s.results, ui.playback.step(), s.jobs, s.settings, ui.show_storage, ui.code.show, ui.canvas.overview);
         }},
        {nullptr, false, DockSlot::MenuBar, 0, false, true, [](const AppState& s, UiState&, const FrameContext&, const Rect&) {
             return draw_compare_menu(s.compare);
         }},
        {nullptr, false, DockSlot::Dialogs, 0, false, true, [](const AppState& s, UiState&, const FrameContext&, const Rect&) {
             return draw_dialogs(s.jobs.dialog, s.session, s.settings.light_theme);
         }},
        {"Canvas", false, DockSlot::Center, kBare | ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoBringToFrontOnFocus,
         true, false, [](const AppState& s, UiState& ui, const FrameContext& c, const Rect& area) {
             // Slides and canvas-only pictures show the canvas without its selector and messages.
             const bool decorations = !c.canvas_only && !c.presentation_header && !ui.presentation;
             if (s.compare.on) return draw_compare_canvas(s, ui, c, area);
             Actions out = draw_canvas_panel(s.results, s.session, ui, s.settings, c, decorations);
             draw_canvas_drawings(ui, !c.offscreen);  // the pen's drawings, in pictures too (view_annotations.h)
             return out;
         }},
        // Presenting: the pen's palette, the note, the pointer, the blank screen (view_presenter.h).
        {nullptr, false, DockSlot::Center, 0, false, true, [](const AppState&, UiState& ui, const FrameContext& c, const Rect&) {
             return draw_presenter(ui, c.now);
         }},
        {"window.code", true, DockSlot::BesideCanvas, 0, false, false, [](const AppState& s, UiState& ui, const FrameContext& c, const Rect&) {
             draw_code_panel(s.results.trace.get(), ui.playback, ui.code, s.settings.light_theme, c.fonts);
             return Actions{};
         }},
        {"lesson.list.window", true, DockSlot::SlideList, 0, false, true, [](const AppState& s, UiState&, const FrameContext& c, const Rect&) {
             return draw_slide_list(s.jobs.lesson, c.thumbnails, s.settings.light_theme);
         }},
        {"window.controls", true, DockSlot::Left, ImGuiWindowFlags_NoScrollbar, false, false, [](const AppState& s, UiState& ui, const FrameContext& c, const Rect&) {
             if (!s.compare.on) return draw_controls_panel(s.session, s.results, ui, s.settings, c.computing);
             // Compare mode: the A/B switch, then the controls of the side it chose.
             Actions out = draw_compare_switch(s.compare);
             if (!controls_edit_b(s)) return out |= draw_controls_panel(s.session, s.results, ui, s.settings, c.computing);
             return out |= as_b_edit(draw_controls_panel(s.compare.b, s.compare.b_results, ui, s.settings, c.computing));
         }},
        {"Generation", false, DockSlot::TokenStrip, kBare, false, false, [](const AppState& s, UiState& ui, const FrameContext&, const Rect&) {
             return draw_token_strip(s.results, ui.playback.step(), ui.canvas.chosen_head(), s.settings.light_theme);
         }},
        {"Timeline", false, DockSlot::Bottom, kBare, false, false, [](const AppState& s, UiState& ui, const FrameContext&, const Rect&) {
             draw_timeline(s.results.trace.get(), ui.playback, s.settings.light_theme);
             return Actions{};
         }},
        {nullptr, false, DockSlot::AboveBottom, 0, false, true, [](const AppState& s, UiState& ui, const FrameContext&, const Rect& area) {
             // Above the storage strip when the canvas has one, so the hint covers no picture.
             Rect anchor = area;
             if (ui.canvas.pictures_bottom > 0) anchor.y = std::min(anchor.y, ui.canvas.pictures_bottom);
             return draw_first_run_hint(s.settings.hint_seen, s.results.trace != nullptr, ui.playback.step(), anchor);
         }},
        {"window.explanation", true, DockSlot::RightTop, 0, false, false, [](const AppState& s, UiState& ui, const FrameContext& c, const Rect&) {
             draw_explanation(s.results.trace.get(), ui.playback.step(), s.results.model ? s.results.model->batch_item : 0,
                              s.settings.light_theme, c.fonts, false);
             draw_decode_notes(s.results, ui.playback.step(), ui.canvas.chosen_head());  // a decode step's row and cache
             return Actions{};
         }},
        {"window.inspector", true, DockSlot::RightBottom, 0, false, false, [](const AppState& s, UiState& ui, const FrameContext&, const Rect&) {
             if (s.compare.on) draw_compare_inspector(s, ui.canvas);
             draw_inspector(s.results, ui.canvas, ui.playback.step(), MaskOrigins{&s.session.config, &s.session.painted_mask});
             return draw_input_editor(s.session, s.results, ui, s.settings.light_theme);
         }},
        {nullptr, false, DockSlot::StatusBar, 0, false, false, [](const AppState& s, UiState& ui, const FrameContext& c, const Rect& area) {
             return draw_status_line(ui, s.jobs.export_progress, c.now, area);
         }},
        // Help > Tour's outlines and bubble, over everything drawn before it (view_tour.h).
        {nullptr, false, DockSlot::StatusBar, 0, false, false, [](const AppState& s, UiState& ui, const FrameContext& c, const Rect&) {
             const ImVec2 screen = ImGui::GetIO().DisplaySize;
             return draw_tour_overlay(s.tour, ui.lesson.marks, ui.elements, Rect{0, 0, screen.x, screen.y}, !c.offscreen);
         }},
    };
    return views;
}

const char* window_name(const ViewSpec& view) { return view.titled ? text::label(view.window) : view.window; }

void place_window(float x, float y, float w, float h) {
    ImGui::SetNextWindowPos(ImVec2(x, y));
    ImGui::SetNextWindowSize(ImVec2(std::max(1.0f, w), std::max(1.0f, h)));
}

}  // namespace attn::gui
