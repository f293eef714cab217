// Jobs: work the user started that outlives one frame: the open dialog (file paths,
// export options) and the progress of "export all steps".
#pragma once

#include <string>

#include "app/gui/state/file_chooser.h"
#include "app/gui/state/lesson_doc.h"
#include "core/message.h"

namespace attn::gui {

// The one dialog open at a time (file paths, export options, help).
struct DialogState {
    enum class Kind { None, OpenWeights, OpenQuery, OpenKey, OpenValue, OpenMask, ExportSnapshot, ExportAll, ExportTensors, ExportTorch, ExportCsv, ExportAnimation, Keys,
                      OpenLesson, SaveLesson, LessonUnsaved };  // the Lesson menu's (lesson_doc.h)
    Kind kind = Kind::None;
    bool just_opened = false;
    std::string path;
    int scale_index = 0;      // 0: 1x, 1: 2x, 2: 4x
    bool canvas_only = true;
    bool animation_mp4 = false;        // Export animation: MP4 (ffmpeg) rather than GIF
    bool animation_all_steps = false;  // Export animation: every step rather than the one on screen
    std::string animation_step_file;   // the one step's file name, back when "This step" is picked again
    Message error;            // shown inside the dialog (rendered when drawn)
    bool close = false;       // set by the window loop when the dialog's action succeeded
    bool refocus = false;     // put the keyboard back into the path field (after a failed try)
    std::string base;         // the folder relative paths start from (shown in the dialog)
    FileChooser chooser;      // the folder listing under the path field
    Message question;         // "replace X?" / "create folder X?" awaiting an answer (empty when none)
    std::string question_path;  // the resolved path the question is about
    std::string create_folder;  // the one folder to create when the answer is yes
    std::string last_folder;  // where the previous export went (the next one starts there)
};

// "Export all steps" runs one step per frame so the window stays responsive.
struct ExportProgress {
    bool active = false;
    int next = 0, total = 0;
    std::string folder;
    int scale = 1;
    bool canvas_only = true;
    bool animation = false;  // a GIF or MP4: next/total count frames, `folder` is the file; Cancel stops it
};

struct Jobs {
    DialogState dialog;
    ExportProgress export_progress;
    LessonDoc lesson;  // the lesson being made (Lesson menu, slide list)
};

}  // namespace attn::gui
