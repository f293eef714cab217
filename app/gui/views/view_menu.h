// The menu bar (File, View, Help) and its dialogs: open files by path, export options,
// the keyboard help. Actions that need GL (exports) are returned to the window loop.
#pragma once

#include <string>

#include "app/gui/actions.h"
#include "app/gui/jobs.h"
#include "app/gui/results.h"
#include "app/gui/settings.h"
#include "app/io/problem.h"

namespace attn::gui {

// The main menu bar. `step` is the step on screen (export file names); the File menu
// opens dialogs in `jobs`, "Forget loaded files" edits `sources`, View edits `settings`.
Actions draw_menu(io::ProblemSources& sources, const Results& results, int step, Jobs& jobs, UiSettings& settings,
                  bool& show_storage);
// The open dialog (a modal popup) of `dialog`; call once per frame after the menu. An
// open-file dialog writes the chosen path into `sources`.
Actions draw_dialogs(DialogState& dialog, io::ProblemSources& sources, bool light_theme);
// Opens the open/export dialog `kind` with `path` in its field and the listing beside it.
void open_path_dialog(DialogState& dialog, DialogState::Kind kind, std::string path);
// Inside an open or export dialog's popup: the path field, the folder listing, the
// checks and questions ("replace?", "create folder?"), the buttons. `open` is false once
// the popup's close button was pressed. (views/view_path_dialog.cpp)
void draw_path_dialog(DialogState& dialog, io::ProblemSources& sources, bool light_theme, Actions& out, bool open);

}  // namespace attn::gui
