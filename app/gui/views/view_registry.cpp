// The list of views (see view_registry.h for how to add one), one line per view. Each
// line's function hands its view the parts of the state it draws (read-only) and its part
// of the UiState, nothing else.
#include "app/gui/views/view_registry.h"

#include <algorithm>

#include "app/gui/views/compare_slots.h"
#include "app/gui/views/dialogs/view_dialogs.h"
#include "app/gui/views/panels/view_code.h"
#include "app/gui/views/panels/view_decode_notes.h"
#include "app/gui/views/panels/view_compare_menu.h"
#include "app/gui/views/panels/view_explain.h"
#include "app/gui/views/panels/view_hint.h"
#include "app/gui/views/panels/view_menu.h"
#include "app/gui/views/panels/view_presentation_footer.h"
#include "app/gui/views/panels/view_presenter.h"
#include "app/gui/views/panels/view_slide_grid.h"
#include "app/gui/views/panels/view_slide_list.h"
#include "app/gui/views/panels/view_status.h"
#include "app/gui/views/panels/view_timeline.h"
#include "app/gui/views/panels/view_token_strip.h"
#include "app/gui/views/panels/view_tour.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

constexpr ImGuiWindowFlags kBare = ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar;
constexpr ImGuiWindowFlags kCanvas = kBare | ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoBringToFrontOnFocus;
constexpr ImGuiWindowFlags kNoScrollbar = ImGuiWindowFlags_NoScrollbar;

// Each view's row hands it the parts of the state it draws (compare mode's three slots
// are wrapped in compare_slots.h).
Actions menu_bar(const AppState& s, UiState& ui, const FrameContext&, const Rect&) {
    return draw_menu(s.session, s.results, ui.playback.step(), s.jobs, s.settings, ui.show_storage, ui.code.show, ui.canvas.overview,
                     ui.screens);
}
Actions compare_menu(const AppState& s, UiState&, const FrameContext&, const Rect&) { return draw_compare_menu(s.compare); }
Actions dialogs(const AppState& s, UiState&, const FrameContext&, const Rect&) {
    return draw_dialogs(s.jobs.dialog, s.session, s.settings.light_theme);
}
// Presenting: the pen's palette, the note, the pointer, the blank screen (view_presenter.h).
Actions presenter(const AppState& s, UiState& ui, const FrameContext& c, const Rect&) {
    return draw_presenter(ui, s.settings.laser_colour, c.now);
}
// G while presenting: every slide's picture, to pick one (view_slide_grid.h).
Actions slide_grid(const AppState& s, UiState& ui, const FrameContext& c, const Rect&) {
    return draw_slide_grid(s.jobs.lesson, c.thumbnails, ui);
}
Actions code_panel(const AppState& s, UiState& ui, const FrameContext& c, const Rect&) {
    draw_code_panel(s.results.trace.get(), ui.playback, ui.code, s.settings.light_theme, c.fonts);
    return Actions{};
}
Actions slide_list(const AppState& s, UiState&, const FrameContext& c, const Rect&) {
    return draw_slide_list(s.jobs.lesson, c.thumbnails, s.settings.light_theme);
}
// The generation's tokens above the canvas (view_token_strip.h).
Actions token_strip(const AppState& s, UiState& ui, const FrameContext&, const Rect&) {
    return draw_token_strip(s.results, ui.playback.step(), ui.canvas.chosen_head(), s.settings.light_theme);
}
Actions timeline(const AppState& s, UiState& ui, const FrameContext&, const Rect&) {
    draw_timeline(s.results.trace.get(), ui.playback, s.settings.light_theme);
    return Actions{};
}
Actions first_run_hint(const AppState& s, UiState& ui, const FrameContext&, const Rect& area) {
    // Under the lowest matrix drawn when it fits there: the tensor stays in sight.
    float pictures_end = 0.0f;
    for (const PlacedMatrix& m : ui.canvas.placed) pictures_end = std::max(pictures_end, m.rect.y + m.rect.h);
    return draw_first_run_hint(s.settings.hint_seen, s.results.trace != nullptr, ui.playback.step(), area, pictures_end);
}
Actions explanation(const AppState& s, UiState& ui, const FrameContext& c, const Rect&) {
    draw_explanation(s.results.trace.get(), ui.playback.step(), s.results.model ? s.results.model->batch_item : 0,
                     s.settings.light_theme, c.fonts, false);
    draw_decode_notes(s.results, ui.playback.step(), ui.canvas.chosen_head());  // a decode step's row and cache
    return Actions{};
}
Actions status_line(const AppState& s, UiState& ui, const FrameContext& c, const Rect& area) {
    return draw_status_line(ui, s.jobs.export_progress, c.now, area);
}
// Help > Tour's outlines and bubble, over everything drawn before it (view_tour.h).
Actions tour_overlay(const AppState& s, UiState& ui, const FrameContext& c, const Rect&) {
    const ImVec2 screen = ImGui::GetIO().DisplaySize;
    return draw_tour_overlay(s.tour, ui.lesson.marks, ui.elements, Rect{0, 0, screen.x, screen.y}, !c.offscreen);
}

}  // namespace

const std::vector<ViewSpec>& registered_views() {
    // One line per view, in drawing order (later ones sit on top).
    static const std::vector<ViewSpec> views = {
        // window              titled slot                    extra flags           edge   interactive only  draw
        {nullptr,              false, DockSlot::MenuBar,      0,                    false, false, menu_bar},
        {nullptr,              false, DockSlot::MenuBar,      0,                    false, true,  compare_menu},
        {nullptr,              false, DockSlot::Dialogs,      0,                    false, true,  dialogs},
        {"Canvas",             false, DockSlot::Center,       kCanvas,              true,  false, draw_canvas_slot},
        {nullptr,              false, DockSlot::Center,       0,                    false, true,  presenter},
        {nullptr,              false, DockSlot::Center,       0,                    false, true,  slide_grid},
        {"window.code",        true,  DockSlot::BesideCanvas, 0,                    false, false, code_panel},
        {"lesson.list.window", true,  DockSlot::SlideList,    0,                    false, true,  slide_list},
        {"window.controls",    true,  DockSlot::Left,         kNoScrollbar,         false, false, draw_controls_slot},
        {"Generation",         false, DockSlot::TokenStrip,   kBare,                false, false, token_strip},
        {"Timeline",           false, DockSlot::Bottom,       kBare,                false, false, timeline},
        {nullptr,              false, DockSlot::AboveBottom,  0,                    false, true,  first_run_hint},
        {"window.explanation", true,  DockSlot::RightTop,     0,                    false, false, explanation},
        {"window.inspector",   true,  DockSlot::RightBottom,  0,                    false, false, draw_inspector_slot},
        {nullptr,              false, DockSlot::StatusBar,    0,                    false, false, status_line},
        {nullptr,              false, DockSlot::StatusBar,    0,                    false, false, tour_overlay},
        {nullptr,              false, DockSlot::PresentTitle, 0,                    false, false, draw_presentation_title},
        {nullptr,              false, DockSlot::PresentFooter, 0,                   false, false, draw_presentation_footer},
    };
    return views;
}

const char* window_name(const ViewSpec& view) { return view.titled ? text::label(view.window) : view.window; }

void place_window(float x, float y, float w, float h) {
    ImGui::SetNextWindowPos(ImVec2(x, y));
    ImGui::SetNextWindowSize(ImVec2(std::max(1.0f, w), std::max(1.0f, h)));
}

}  // namespace attn::gui
