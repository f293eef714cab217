// The lesson being made in the window (Lesson menu, slide list): its slides, the file it
// came from or goes to, whether it has unsaved edits, and the undo history of slide edits.
// Display-free: every edit is a plain function on LessonDoc, so the tests drive them
// without a window; window/lesson_edit.cpp carries out the requests the views return.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "app/lesson/lesson.h"
#include "core/message.h"
#include "core/result.h"

namespace attn::gui {

// What a view asked to do with the lesson (Actions::lesson_edit).
struct LessonEdit {
    enum class Op {
        New, Open, Save, SaveAs, Present,         // the file and presenting; Open/SaveAs carry `text` (a path)
        Add, Update, Delete, MoveUp, MoveDown,     // the current slide
        Go, Move,                                  // show slide `index`; move slide `index` to place `to`
        Title, Note,                               // slide `index`'s title or note becomes `text`
        LessonTitle, LessonMinutes,                // the lesson's title becomes `text`; its minutes `index`
        Undo, Redo,
        SaveThenContinue, Discard, Cancel,         // the answers to "save changes first?"
        ExportPictures,                            // the saved lesson as one PNG per slide (window/lesson_pictures.h)
        ExportHandout,                             // the saved lesson as a PDF handout (the same)
    };
    Op op = Op::Go;
    int index = -1, to = -1;
    std::string text;
};

// What waits on the answer to "save changes first?": the request that asked (New, Open
// with its path, or quitting the window).
struct PendingLessonStep {
    bool quit = false;
    LessonEdit edit;  // when not quitting
};

struct LessonDoc {
    // The slides and what each computes; opened.lesson holds the title and language
    // (its slide list is not kept up to date: lesson_of builds the file's).
    lesson::OpenedLesson opened;
    bool open = false;           // a lesson is being made (the slide list is shown)
    std::string path;            // the file it was opened from or saved to; "" before Save as
    int current = -1;            // the slide marked in the list (-1: none)
    bool dirty = false;          // edits since the last open or save
    std::optional<PendingLessonStep> pending;  // waiting on the unsaved-changes question
    Message error;               // the last save or open failure, shown in the slide list

    // The undo history: the slides and the current slide before each edit.
    struct Version {
        std::vector<lesson::OpenedSlide> slides;
        int current = -1;
    };
    std::vector<Version> undo, redo;
    // Typing into one title or note makes one undo entry, not one per letter.
    LessonEdit::Op last_op = LessonEdit::Op::Go;
    int last_index = -1;
};

// Undo entries kept (older ones are dropped).
inline constexpr size_t kLessonUndoDepth = 100;

// An empty lesson, open, untitled, in `language`.
void new_lesson(LessonDoc& doc, const std::string& language);
// `opened` becomes the lesson made, from `path`, its first slide current.
void take_opened_lesson(LessonDoc& doc, lesson::OpenedLesson opened, const std::string& path);

// The edits of slides (each one undoable, each marks the lesson unsaved).
void add_slide(LessonDoc& doc, lesson::OpenedSlide slide);        // after the current one, becomes current
void update_slide(LessonDoc& doc, lesson::OpenedSlide slide);     // replaces the current one (keeps title and note given)
void delete_slide(LessonDoc& doc);                                // the current one
void move_slide(LessonDoc& doc, int from, int to);                // `from` ends at place `to`; it stays current
void set_slide_title(LessonDoc& doc, int index, const std::string& title);
void set_slide_note(LessonDoc& doc, int index, const std::string& note);
// The lesson's own title and length ("minutes", 0: none); unsaved until saved, not undone.
void set_lesson_title(LessonDoc& doc, const std::string& title);
void set_lesson_minutes(LessonDoc& doc, int minutes);
bool undo_lesson_edit(LessonDoc& doc);  // false when there is nothing to undo
bool redo_lesson_edit(LessonDoc& doc);

// The lesson as its file holds it: the slides in order, numbered from 1.
lesson::Lesson lesson_of(const LessonDoc& doc);
// Writes the lesson to `path` under a temporary name, then renamed over it (a failure
// leaves an existing file as it was); on success the lesson is saved there.
Status save_lesson(LessonDoc& doc, const std::string& path);
// "Slide {number}": a new slide's title.
std::string new_slide_title(const LessonDoc& doc);

}  // namespace attn::gui
