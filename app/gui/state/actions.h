// Actions: what the user asked for in one frame, returned by every view and merged in
// one place (draw_frame). Views never write the session, the settings or the jobs: an
// edit comes back here (the view's edited copy, or a precise request) and draw_frame
// applies it once the view's dock slot is drawn (apply_edits, state/apply_edits.h); the flags are
// then carried out by the window loop (they need GL or GLFW).
#pragma once

#include <optional>
#include <string>
#include <utility>

#include "app/gui/state/export_request.h"
#include "app/gui/state/jobs.h"
#include "app/gui/state/lesson_doc.h"
#include "app/gui/state/session.h"
#include "app/gui/state/settings.h"

namespace attn::gui {

struct Actions {
    bool config_changed = false;       // post a new compute request
    bool scale_changed = false;        // rebuild fonts
    bool theme_changed = false;        // restyle and re-bake textures
    bool language_changed = false;     // rebuild fonts for the new language's glyphs
    bool toggle_presentation = false;
    bool toggle_fullscreen = false;
    bool leave_fullscreen = false;     // Escape: back to a window (after any toggle)
    bool quit = false;
    bool cancel_export = false;        // Cancel beside an animated export's progress bar
    int go_to_slide = -1;              // a lesson's slide to show (index), -1: stay
    bool toggle_pointer = false;       // View > Laser pointer (presenting, window/present_keys.h)
    bool toggle_pen = false;           // View > Pen
    bool toggle_overview = false;      // View > Overview (O): every layer's heads instead of the picture
    std::optional<std::string> present_screen;  // View > Present on screen: a monitor's name
    // Help > Tour (state/tour.h): start it, show its slide `tour_slide` (-1: stay), close it.
    bool start_tour = false;
    int tour_slide = -1;
    bool close_tour = false;
    std::optional<ExportRequest> export_request;  // the first one asked for wins
    // Compare mode (state/compare.h): View > Compare, the A/B switch, a ready contrast.
    bool toggle_compare = false;
    std::optional<bool> compare_edit_b;     // the switch: true edits B, false A
    std::string compare_contrast;           // a Compare menu row's id (compare_contrasts.h)
    bool compare_b_changed = false;         // post B's compute request
    int decode_step = -1;                   // the token strip's click: show this decode step (state/decode_choice.h)

    // Edits of the state, each set only when the view changed something. The views of
    // one dock slot start from the same state, so two edits of one part cannot be
    // combined: the first one in drawing order wins (one mouse and one keyboard make
    // that moot).
    std::optional<Session> session_edit;              // the session as a view edited it
    std::optional<io::ProblemSources> sources_edit;   // the input files (an open dialog picked one)
    std::optional<UiSettings> settings_edit;          // the settings as a view edited them
    std::optional<DialogState> dialog_edit;           // the dialog opened, typed into or closed
    std::optional<Session> compare_b_edit;            // compare mode: B's session as the controls edited it
    bool hint_dismissed = false;                      // the first-run hint is done with
    // Lesson menu, slide list, Ctrl+Z: what to do with the lesson being made (lesson_doc.h).
    std::optional<LessonEdit> lesson_edit;

    // Taken by value: a view's temporary result is moved in, not copied.
    Actions& operator|=(Actions other) {
        config_changed |= other.config_changed;
        scale_changed |= other.scale_changed;
        theme_changed |= other.theme_changed;
        language_changed |= other.language_changed;
        toggle_presentation |= other.toggle_presentation;
        toggle_fullscreen |= other.toggle_fullscreen;
        leave_fullscreen |= other.leave_fullscreen;
        quit |= other.quit;
        cancel_export |= other.cancel_export;
        if (go_to_slide < 0) go_to_slide = other.go_to_slide;
        toggle_overview ^= other.toggle_overview;  // the menu and the key in one frame cancel out
        if (!present_screen) present_screen = std::move(other.present_screen);
        toggle_compare |= other.toggle_compare;
        if (!compare_edit_b) compare_edit_b = other.compare_edit_b;
        if (compare_contrast.empty()) compare_contrast = std::move(other.compare_contrast);
        compare_b_changed |= other.compare_b_changed;
        if (decode_step < 0) decode_step = other.decode_step;
        if (!compare_b_edit) compare_b_edit = std::move(other.compare_b_edit);
        toggle_pointer |= other.toggle_pointer;
        toggle_pen |= other.toggle_pen;
        start_tour |= other.start_tour;  // Help > Tour
        if (tour_slide < 0) tour_slide = other.tour_slide;
        close_tour |= other.close_tour;
        if (!export_request) export_request = std::move(other.export_request);
        if (!session_edit) session_edit = std::move(other.session_edit);
        if (!sources_edit) sources_edit = std::move(other.sources_edit);
        if (!settings_edit) settings_edit = std::move(other.settings_edit);
        if (!dialog_edit) dialog_edit = std::move(other.dialog_edit);
        hint_dismissed |= other.hint_dismissed;
        if (!lesson_edit) lesson_edit = std::move(other.lesson_edit);  // the Lesson menu's request
        return *this;
    }
};

}  // namespace attn::gui
