#include "app/gui/state/lesson_doc.h"

#include <algorithm>

#include "app/io/file_util.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

using Op = LessonEdit::Op;

int slide_count(const LessonDoc& doc) { return static_cast<int>(doc.opened.slides.size()); }

// Before an edit: the version to go back to. A run of typing into the same field of the
// same slide is one edit.
void remember(LessonDoc& doc, Op op, int index) {
    const bool typing = (op == Op::Title || op == Op::Note) && doc.last_op == op && doc.last_index == index;
    doc.last_op = op;
    doc.last_index = index;
    doc.dirty = true;
    doc.redo.clear();
    if (typing && !doc.undo.empty()) return;
    doc.undo.push_back({doc.opened.slides, doc.current});
    if (doc.undo.size() > kLessonUndoDepth) doc.undo.erase(doc.undo.begin());
}

bool step_history(LessonDoc& doc, std::vector<LessonDoc::Version>& from, std::vector<LessonDoc::Version>& to) {
    if (from.empty()) return false;
    to.push_back({std::move(doc.opened.slides), doc.current});
    doc.opened.slides = std::move(from.back().slides);
    doc.current = from.back().current;
    from.pop_back();
    doc.last_op = Op::Go;  // the next letter typed is an edit of its own
    doc.dirty = true;
    return true;
}

bool valid_index(const LessonDoc& doc, int index) { return index >= 0 && index < slide_count(doc); }

}  // namespace

void new_lesson(LessonDoc& doc, const std::string& language) {
    doc = LessonDoc{};
    doc.open = true;
    doc.opened.lesson.language = language;
}

void take_opened_lesson(LessonDoc& doc, lesson::OpenedLesson opened, const std::string& path) {
    doc = LessonDoc{};
    doc.open = true;
    doc.opened = std::move(opened);
    doc.path = path;
    doc.current = doc.opened.slides.empty() ? -1 : 0;
}

void add_slide(LessonDoc& doc, lesson::OpenedSlide slide) {
    remember(doc, Op::Add, doc.current);
    const int at = std::clamp(doc.current + 1, 0, slide_count(doc));
    doc.opened.slides.insert(doc.opened.slides.begin() + at, std::move(slide));
    doc.current = at;
}

void update_slide(LessonDoc& doc, lesson::OpenedSlide slide) {
    if (!valid_index(doc, doc.current)) return;
    remember(doc, Op::Update, doc.current);
    doc.opened.slides[static_cast<size_t>(doc.current)] = std::move(slide);
}

void delete_slide(LessonDoc& doc) {
    if (!valid_index(doc, doc.current)) return;
    remember(doc, Op::Delete, doc.current);
    doc.opened.slides.erase(doc.opened.slides.begin() + doc.current);
    doc.current = std::min(doc.current, slide_count(doc) - 1);
}

void move_slide(LessonDoc& doc, int from, int to) {
    to = std::clamp(to, 0, slide_count(doc) - 1);
    if (!valid_index(doc, from) || from == to) return;
    remember(doc, Op::Move, from);
    lesson::OpenedSlide moved = std::move(doc.opened.slides[static_cast<size_t>(from)]);
    doc.opened.slides.erase(doc.opened.slides.begin() + from);
    doc.opened.slides.insert(doc.opened.slides.begin() + to, std::move(moved));
    doc.current = to;
}

void set_slide_title(LessonDoc& doc, int index, const std::string& title) {
    if (!valid_index(doc, index) || doc.opened.slides[static_cast<size_t>(index)].slide.title == title) return;
    remember(doc, Op::Title, index);
    doc.opened.slides[static_cast<size_t>(index)].slide.title = title;
}

void set_slide_note(LessonDoc& doc, int index, const std::string& note) {
    if (!valid_index(doc, index) || doc.opened.slides[static_cast<size_t>(index)].slide.note == note) return;
    remember(doc, Op::Note, index);
    doc.opened.slides[static_cast<size_t>(index)].slide.note = note;
}

void set_lesson_title(LessonDoc& doc, const std::string& title) {
    if (doc.opened.lesson.title == title) return;
    doc.opened.lesson.title = title;
    doc.dirty = true;
}

void set_lesson_minutes(LessonDoc& doc, int minutes) {
    minutes = std::clamp(minutes, 0, lesson::kMaxLessonMinutes);
    if (doc.opened.lesson.minutes == minutes) return;
    doc.opened.lesson.minutes = minutes;
    doc.dirty = true;
}

bool undo_lesson_edit(LessonDoc& doc) { return step_history(doc, doc.undo, doc.redo); }
bool redo_lesson_edit(LessonDoc& doc) { return step_history(doc, doc.redo, doc.undo); }

lesson::Lesson lesson_of(const LessonDoc& doc) {
    lesson::Lesson out = doc.opened.lesson;
    out.slides.clear();
    for (const lesson::OpenedSlide& opened : doc.opened.slides) {
        out.slides.push_back(opened.slide);
        out.slides.back().number = static_cast<int>(out.slides.size());
    }
    return out;
}

Status save_lesson(LessonDoc& doc, const std::string& path) {
    if (Status written = io::write_file_bytes(path, lesson::write_lesson(lesson_of(doc))); !written) return written;
    doc.path = path;
    doc.dirty = false;
    doc.error.clear();
    return ok_status();
}

std::string new_slide_title(const LessonDoc& doc) {
    return text::render(Message("lesson.slide.new_title", {{"number", slide_count(doc) + 1}}));
}

}  // namespace attn::gui
