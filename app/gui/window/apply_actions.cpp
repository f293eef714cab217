#include "app/gui/window/apply_actions.h"

#include <GLFW/glfw3.h>

#include <utility>

#include "app/gui/state/lesson_apply.h"
#include "app/gui/window/cjk_font.h"
#include "app/gui/window/lesson_edit.h"
#include "app/gui/window/window_parts.h"
#include "app/text/languages.h"

namespace attn::gui {

void apply_edits(AppState& state, Actions& actions) {
    if (actions.session_edit) state.session = std::move(*actions.session_edit);
    if (actions.sources_edit) state.session.sources = std::move(*actions.sources_edit);
    if (actions.settings_edit) state.settings = std::move(*actions.settings_edit);
    // The catalogue in use is the process's, not a view's to switch.
    if (actions.language_changed && !text::set_language(state.settings.language)) state.settings.language = text::active().code();
    if (actions.hint_dismissed) state.settings.hint_seen = true;
    if (actions.dialog_edit) state.jobs.dialog = std::move(*actions.dialog_edit);
    actions.session_edit.reset();
    actions.sources_edit.reset();
    actions.settings_edit.reset();
    actions.dialog_edit.reset();
    actions.hint_dismissed = false;
}

void apply_actions(AppState& state, Actions& actions, WindowParts& parts, double now) {
    apply_edits(state, actions);
    if (actions.config_changed) post_request(state, parts, now);
    if (parts.lesson && actions.go_to_slide >= 0 && actions.go_to_slide < static_cast<int>(parts.lesson->slides.size())) {
        parts.slide_index = actions.go_to_slide;
        state.results.posted_generation = parts.worker.post(apply_slide(state, parts.lesson->slides[static_cast<size_t>(parts.slide_index)]));
        state.results.posted_time = now;
        set_status(state.ui, slide_status(*parts.lesson, parts.slide_index), now);
    }
    if (actions.scale_changed || actions.language_changed) parts.rebuild_fonts = true;
    if (actions.language_changed) {
        glfwSetWindowTitle(parts.window, text::tr("window.title"));
        if (Message note = missing_cjk_font_note(text::active().code()); !note.empty()) set_status(state.ui, note, now);
    }
    if (actions.theme_changed) {
        apply_theme(state.settings.light_theme, effective_scale(state, parts));
        parts.cache->reset(state.results.model, canvas_palette(state.settings.light_theme).masked);
    }
    if (actions.toggle_fullscreen) set_full_screen(parts.window, parts.full_screen, !parts.full_screen.on);
    if (actions.toggle_presentation) {
        state.ui.presentation = !state.ui.presentation;
        set_full_screen(parts.window, parts.full_screen, state.ui.presentation);
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
