// [SECTION] index
//   ask_first        unsaved slides: New, Open and quitting wait on Save / Discard / Cancel
//   file edits       New, Open, Save, Save as, Present
//   slide edits      Add (capture_slide), Update, Delete, Move, Title, Note, Undo, Redo
#include "app/gui/window/lesson_edit.h"

#include <GLFW/glfw3.h>

#include <filesystem>

#include "app/gui/compute/in_browser.h"
#include "app/gui/export/download.h"
#include "app/gui/state/export_path.h"
#include "app/gui/export/slide_thumbnails.h"
#include "app/gui/state/capture_slide.h"
#include "app/gui/state/lesson_apply.h"
#include "app/gui/views/dialogs/view_path_dialog.h"
#include "app/gui/window/apply_actions.h"
#include "app/gui/window/present_keys.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

using Op = LessonEdit::Op;
using Kind = DialogState::Kind;
namespace fs = std::filesystem;

// The slide at `index` on screen: its setup computed, its view placed when the trace is in.
void show_slide(AppState& state, WindowParts& parts, int index, double now) {
    LessonDoc& doc = state.jobs.lesson;
    if (index < 0 || index >= static_cast<int>(doc.opened.slides.size())) return;
    doc.current = index;
    state.results.posted_generation = parts.worker.post(apply_slide(state, doc.opened.slides[static_cast<size_t>(index)]));
    state.results.posted_time = now;
    if (parts.lesson == &doc.opened) {  // presented: the slide keys go on from here
        parts.slide_index = index;
        enter_slide(state.ui.present, doc.opened, index);
    }
}

// [SECTION] ask_first -------------------------------------------------------------------

// With unsaved slide edits, `edit` (or quitting) waits on the question; true when it waits.
bool held_for_question(AppState& state, PendingLessonStep step) {
    LessonDoc& doc = state.jobs.lesson;
    if (!doc.open || !doc.dirty) return false;
    doc.pending = std::move(step);
    state.jobs.dialog = DialogState{};
    state.jobs.dialog.kind = Kind::LessonUnsaved;
    state.jobs.dialog.just_opened = true;
    return true;
}

// The step that waited, once the lesson is saved or its edits discarded.
void continue_pending(AppState& state, WindowParts& parts, double now) {
    LessonDoc& doc = state.jobs.lesson;
    if (!doc.pending) return;
    const PendingLessonStep step = std::move(*doc.pending);
    doc.pending.reset();
    if (step.quit) glfwSetWindowShouldClose(parts.window, GLFW_TRUE);
    else apply_lesson_edit(state, parts, step.edit, now);
}

// [SECTION] file edits ------------------------------------------------------------------

void open_lesson_dialog(AppState& state, Kind kind) {
    const LessonDoc& doc = state.jobs.lesson;
    const std::string folder = doc.path.empty() ? export_base_folder() : fs::path(doc.path).parent_path().string();
    const std::string name = kind == Kind::SaveLesson ? (doc.path.empty() ? "my_lesson.json" : fs::path(doc.path).filename().string()) : "";
    open_path_dialog(state.jobs.dialog, kind, (fs::path(folder) / name).string());
}

void open_file(AppState& state, WindowParts& parts, const std::string& path, double now) {
    LessonDoc& doc = state.jobs.lesson;
    Result<lesson::OpenedLesson> opened = lesson::open_lesson(path);
    if (!opened) {
        doc.error = opened.message();
        set_status(state.ui, opened.message(), now);
        return;
    }
    const Message first_problem = opened->problems.empty() ? Message() : opened->problems.front();
    if (parts.lesson == &doc.opened) parts.lesson = nullptr;
    take_opened_lesson(doc, std::move(opened.value()), path);
    parts.thumbnails->forget_all();
    // The window speaks the lesson's language (assets/lessons/README.md), so a slide's
    // title and the window's words around it are one script.
    if (text::active().code() != doc.opened.lesson.language && text::set_language(doc.opened.lesson.language)) {
        parts.rebuild_fonts = true;
        glfwSetWindowTitle(parts.window, text::tr("window.title"));
    }
    // A slide that does not open is left out (and out of the file when it is saved): said.
    doc.error = first_problem;
    set_status(state.ui, first_problem.empty() ? Message("lesson.status.opened", {{"file", path}}) : first_problem, now);
    show_slide(state, parts, 0, now);
}

// Save as: the dialog's path. The folder the dialog offered to create is made first.
void save_to(AppState& state, WindowParts& parts, const std::string& path, double now) {
    LessonDoc& doc = state.jobs.lesson;
    std::error_code ec;
    if (const fs::path folder = fs::path(path).parent_path(); !folder.empty()) fs::create_directories(folder, ec);
    const Status saved = save_lesson(doc, path);
    if (!saved) {
        doc.error = saved.message();
        state.jobs.dialog.error = saved.message();
        set_status(state.ui, saved.message(), now);
        return;
    }
    if (state.jobs.dialog.kind == Kind::SaveLesson) state.jobs.dialog.close = true;
    // In the browser the file is in the page's memory: it is downloaded too (download.h).
    const Message not_downloaded = offer_download(path);
    const char* saved_key = kInBrowser ? "lesson.status.saved_downloaded" : "lesson.status.saved";
    set_status(state.ui,
               not_downloaded.empty() ? Message(saved_key, {{"file", path}, {"count", doc.opened.slides.size()}}) : not_downloaded,
               now);
    continue_pending(state, parts, now);
}

void present(AppState& state, WindowParts& parts, double now) {
    LessonDoc& doc = state.jobs.lesson;
    if (doc.opened.slides.empty()) return;
    parts.lesson = &doc.opened;
    parts.slide_index = std::max(0, doc.current);
    state.ui.present.minutes = doc.opened.lesson.minutes;
    show_slide(state, parts, parts.slide_index, now);
    if (!state.ui.presentation) {
        state.ui.presentation = true;
        present_full_screen(state, parts, now);
        parts.rebuild_fonts = true;
    }
    set_status(state.ui, slide_status(doc.opened, parts.slide_index), now);
}

// [SECTION] slide edits -----------------------------------------------------------------

// The screen as a slide, resolved as the file will resolve it; a message when it cannot be.
std::optional<lesson::OpenedSlide> captured(AppState& state, std::string title, std::string note, double now) {
    const LessonDoc& doc = state.jobs.lesson;
    lesson::Slide slide = capture_slide(state, std::move(title), std::move(note));
    slide.number = static_cast<int>(doc.opened.slides.size()) + 1;
    Result<io::Problem> problem = lesson::slide_problem(slide, doc.path.empty() ? "" : fs::path(doc.path).parent_path().string());
    if (!problem) {
        set_status(state.ui, problem.message(), now);
        return std::nullopt;
    }
    return lesson::OpenedSlide{std::move(slide), std::move(problem.value())};
}

void slide_edit(AppState& state, WindowParts& parts, const LessonEdit& edit, double now) {
    LessonDoc& doc = state.jobs.lesson;
    const int current = doc.current;
    switch (edit.op) {
        case Op::Add:
            if (auto slide = captured(state, new_slide_title(doc), "", now)) add_slide(doc, std::move(*slide));
            break;
        case Op::Update:
            if (current < 0 || current >= static_cast<int>(doc.opened.slides.size())) break;
            if (auto slide = captured(state, doc.opened.slides[static_cast<size_t>(current)].slide.title,
                                      doc.opened.slides[static_cast<size_t>(current)].slide.note, now))
                update_slide(doc, std::move(*slide));
            break;
        case Op::Delete: delete_slide(doc); break;
        case Op::MoveUp: move_slide(doc, current, current - 1); break;
        case Op::MoveDown: move_slide(doc, current, current + 1); break;
        case Op::Move: move_slide(doc, edit.index, edit.to); break;
        case Op::Title: set_slide_title(doc, edit.index, edit.text); break;
        case Op::Note: set_slide_note(doc, edit.index, edit.text); break;
        case Op::LessonTitle: set_lesson_title(doc, edit.text); break;
        case Op::LessonMinutes:
            set_lesson_minutes(doc, edit.index);
            if (parts.lesson == &doc.opened) state.ui.present.minutes = doc.opened.lesson.minutes;
            break;
        case Op::Undo:
            if (undo_lesson_edit(doc)) set_status(state.ui, Message("lesson.status.undone"), now);
            break;
        case Op::Redo:
            if (redo_lesson_edit(doc)) set_status(state.ui, Message("lesson.status.redone"), now);
            break;
        case Op::Go: show_slide(state, parts, edit.index, now); break;
        default: break;
    }
}

}  // namespace

std::optional<LessonEdit> lesson_edit_keys(KeyPresses& presses, const LessonDoc& doc) {
    std::optional<LessonEdit> edit;
    if (!doc.open) return edit;
    for (auto it = presses.begin(); it != presses.end();) {
        const auto [key, mods] = *it;
        const bool ctrl = (mods & GLFW_MOD_CONTROL) != 0, shift = (mods & GLFW_MOD_SHIFT) != 0;
        const bool undo = ctrl && !shift && key == GLFW_KEY_Z;
        const bool redo = ctrl && ((shift && key == GLFW_KEY_Z) || key == GLFW_KEY_Y);
        if (!undo && !redo) {
            ++it;
            continue;
        }
        edit = LessonEdit{undo ? Op::Undo : Op::Redo, -1, -1, ""};
        it = presses.erase(it);
    }
    return edit;
}

void apply_lesson_edit(AppState& state, WindowParts& parts, const LessonEdit& edit, double now) {
    LessonDoc& doc = state.jobs.lesson;
    switch (edit.op) {
        case Op::New:
            if (held_for_question(state, {false, edit})) return;
            if (parts.lesson == &doc.opened) parts.lesson = nullptr;
            new_lesson(doc, text::active().code());
            set_status(state.ui, Message("lesson.status.new"), now);
            return;
        case Op::Open:
            if (edit.text.empty()) return open_lesson_dialog(state, Kind::OpenLesson);
            if (held_for_question(state, {false, edit})) return;
            return open_file(state, parts, edit.text, now);
        case Op::Save:
            doc.pending.reset();  // asked from the menu: a question left unanswered is over
            if (doc.path.empty()) return open_lesson_dialog(state, Kind::SaveLesson);
            return save_to(state, parts, doc.path, now);
        case Op::SaveAs:
            if (edit.text.empty()) {
                doc.pending.reset();
                return open_lesson_dialog(state, Kind::SaveLesson);
            }
            return save_to(state, parts, edit.text, now);
        case Op::SaveThenContinue:
            if (doc.path.empty()) return open_lesson_dialog(state, Kind::SaveLesson);  // the question still waits
            return save_to(state, parts, doc.path, now);
        case Op::Discard:
            doc.dirty = false;
            return continue_pending(state, parts, now);
        case Op::Cancel: doc.pending.reset(); return;
        case Op::Present: return present(state, parts, now);
        case Op::ExportPictures: {
            int w = 1280, h = 720;  // the window's own size, as File > Export's pictures
            glfwGetWindowSize(parts.window, &w, &h);
            return set_status(state.ui, parts.lesson_pictures.start(doc.path, w, h, text::active().code()), now);
        }
        case Op::ExportHandout: return set_status(state.ui, parts.lesson_pictures.start_handout(doc.path, text::active().code()), now);
        default: return slide_edit(state, parts, edit, now);
    }
}

void after_lesson_frame(AppState& state, WindowParts& parts, double now) {
    LessonDoc& doc = state.jobs.lesson;
    if (glfwWindowShouldClose(parts.window) && held_for_question(state, {true, LessonEdit{}})) {
        glfwSetWindowShouldClose(parts.window, GLFW_FALSE);
        set_status(state.ui, Message("lesson.status.quit_held"), now);
    }
    // Presenting (Lesson > Present) ends with presentation mode (a lesson opened with
    // `--lesson` keeps its slide keys); the list follows the slide shown.
    if (parts.lesson == &doc.opened) {
        doc.current = parts.slide_index;
        if (!state.ui.presentation && !parts.lesson_stays) parts.lesson = nullptr;
    }
    if (!parts.lesson) parts.lesson_stays = false;
    if (std::optional<Message> done = parts.lesson_pictures.take_result()) set_status(state.ui, *done, now);
    // One picture per frame; an idle window is woken for the next one (presenting: only for
    // the slide grid, G).
    const bool pictures_shown = !state.ui.presentation || state.ui.present.grid;
    if (doc.open && pictures_shown && parts.thumbnails->draw_one_missing(doc, state.settings)) glfwPostEmptyEvent();
}

}  // namespace attn::gui
