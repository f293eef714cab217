#include "app/gui/window/apply_actions.h"

#include <GLFW/glfw3.h>

#include <utility>

#include "app/gui/state/decode_choice.h"
#include "app/gui/state/lesson_apply.h"
#include "app/gui/window/compare_window.h"
#include "app/gui/kit/cjk_font.h"
#include "app/gui/window/lesson_edit.h"
#include "app/gui/window/present_keys.h"
#include "app/gui/window/tour_actions.h"
#include "app/gui/window/window_parts.h"
#include "app/text/languages.h"

namespace attn::gui {

void present_full_screen(AppState& state, WindowParts& parts, double now) {
    state.ui.screens = connected_screens();
    const ScreenChoice choice = choose_screen(state.ui.screens, state.settings.present_screen);
    if (!choice.problem.empty()) tell_presenter(state.ui, choice.problem, now);
    set_full_screen(parts.window, parts.full_screen, true, choice.problem.empty() ? state.settings.present_screen : "");
    move_notes_window(parts.notes, parts.window);  // the speaker's notes to the other screen
}

void apply_actions(AppState& state, Actions& actions, WindowParts& parts, double now) {
    apply_edits(state, actions);
    if (actions.config_changed) post_request(state, parts, now);
    if (actions.decode_step >= 0) {  // the token strip: made here against the kept cache, no new request
        if (Message why = show_decode_step(state, actions.decode_step, now); !why.empty()) set_status(state.ui, why, now);
        else parts.worker.complete_later(state.results.trace, state.results.model);  // the other steps, in the background
    }
    apply_compare_actions(state, actions, parts, now);
    // Presenting (present_keys.h): the pen's drawings go into the slide they were drawn on.
    keep_slide_drawings(state.ui, parts.lesson, parts.slide_index);
    if (actions.toggle_pointer) state.ui.present.pointer_on = !state.ui.present.pointer_on;
    if (actions.toggle_pen) state.ui.present.pen = !state.ui.present.pen;
    if (parts.lesson && actions.go_to_slide >= 0 && actions.go_to_slide < static_cast<int>(parts.lesson->slides.size())) {
        parts.slide_index = actions.go_to_slide;
        state.results.posted_generation = parts.worker.post(apply_slide(state, parts.lesson->slides[static_cast<size_t>(parts.slide_index)]));
        state.results.posted_time = now;
        set_status(state.ui, slide_status(*parts.lesson, parts.slide_index), now);
        enter_slide(state.ui.present, *parts.lesson, parts.slide_index);
    }
    // View > Overview: open without thumbnails, the canvas panel asks for a trace with them.
    if (actions.toggle_overview) state.ui.canvas.overview = !state.ui.canvas.overview;
    apply_tour_actions(state, actions, parts, now);  // Help > Tour (tour_actions.h)
    if (actions.scale_changed || actions.language_changed) parts.rebuild_fonts = true;
    if (actions.language_changed) {
        glfwSetWindowTitle(parts.window, text::tr("window.title"));
        if (Message note = missing_cjk_font_note(text::active().code()); !note.empty()) set_status(state.ui, note, now);
    }
    if (actions.theme_changed) {
        apply_theme(state.settings.light_theme, effective_scale(state, parts));
        parts.cache->reset(state.results.model, canvas_palette(state.settings.light_theme).masked);
        parts.compare_b_cache->reset(nullptr, canvas_palette(state.settings.light_theme).masked);  // re-baked when drawn
        parts.difference_cache->reset(nullptr, canvas_palette(state.settings.light_theme).masked);
    }
    if (actions.present_screen) {  // View > Present on screen: kept, and moved to now when presenting
        state.settings.present_screen = *actions.present_screen;
        if (state.ui.presentation) present_full_screen(state, parts, now);
    }
    if (actions.toggle_fullscreen) {
        if (parts.full_screen.on) set_full_screen(parts.window, parts.full_screen, false);
        else present_full_screen(state, parts, now);
    }
    if (actions.toggle_presentation) {
        state.ui.presentation = !state.ui.presentation;
        if (state.ui.presentation) present_full_screen(state, parts, now);
        else set_full_screen(parts.window, parts.full_screen, false);
        parts.rebuild_fonts = true;
    }
    if (actions.leave_fullscreen) set_full_screen(parts.window, parts.full_screen, false);
    if (actions.quit) glfwSetWindowShouldClose(parts.window, GLFW_TRUE);
    if (actions.cancel_export) parts.exporter->cancel(state, now);
    if (actions.lesson_edit) apply_lesson_edit(state, parts, *actions.lesson_edit, now);  // Lesson menu, slide list
    if (actions.export_request) {
        int w = 0, h = 0;
        glfwGetWindowSize(parts.window, &w, &h);
        parts.exporter->start(state, *actions.export_request, w, h, now);
    }
}

}  // namespace attn::gui
