#include "app/gui/views/compare_slots.h"

#include "app/gui/views/canvas/view_annotations.h"
#include "app/gui/views/canvas/view_canvas_panel.h"
#include "app/gui/views/canvas/view_compare.h"
#include "app/gui/views/controls/view_controls.h"
#include "app/gui/views/controls/view_input_editor.h"
#include "app/gui/views/inspector/view_compare_inspector.h"
#include "app/gui/views/inspector/view_inspector.h"
#include "app/gui/views/panels/view_compare_menu.h"

namespace attn::gui {

Actions draw_canvas_slot(const AppState& s, UiState& ui, const FrameContext& c, const Rect& area) {
    if (s.compare.on) return draw_compare_canvas(s, ui, c, area);
    // Slides and canvas-only pictures show the canvas without its selector and messages.
    const bool decorations = !c.canvas_only && !c.presentation_header && !ui.presentation;
    Actions out = draw_canvas_panel(s.results, s.session, ui, s.settings, c, decorations);
    draw_canvas_drawings(ui, !c.offscreen);  // the pen's drawings, in pictures too (view_annotations.h)
    return out;
}

Actions draw_controls_slot(const AppState& s, UiState& ui, const FrameContext& c, const Rect&) {
    if (!s.compare.on) return draw_controls_panel(s.session, s.results, ui, s.settings, c.computing);
    // Compare mode: the A/B switch, then the controls of the side it chose.
    Actions out = draw_compare_switch(s.compare);
    if (!controls_edit_b(s)) return out |= draw_controls_panel(s.session, s.results, ui, s.settings, c.computing);
    return out |= as_b_edit(draw_controls_panel(s.compare.b, s.compare.b_results, ui, s.settings, c.computing));
}

Actions draw_inspector_slot(const AppState& s, UiState& ui, const FrameContext&, const Rect&) {
    if (s.compare.on) draw_compare_inspector(s, ui.canvas);
    draw_inspector(s.results, ui.canvas, ui.playback.step(), MaskOrigins{&s.session.config, &s.session.painted_mask});
    return draw_input_editor(s.session, s.results, ui, s.settings.light_theme);
}

}  // namespace attn::gui
