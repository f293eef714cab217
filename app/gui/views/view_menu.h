// The menu bar (File, View, Help). Its entries open dialogs (view_dialogs) or change
// display settings; what needs the window loop comes back as Actions.
#pragma once

#include "app/gui/actions.h"
#include "app/gui/jobs.h"
#include "app/gui/results.h"
#include "app/gui/session.h"
#include "app/gui/settings.h"
#include "app/io/problem.h"

namespace attn::gui {

// The main menu bar. `step` is the step on screen (export file names); the File menu
// opens dialogs in `jobs`, "Forget loaded files" edits `session.sources`, Model picks
// `session.model`, View edits `settings`.
Actions draw_menu(Session& session, const Results& results, int step, Jobs& jobs, UiSettings& settings,
                  bool& show_storage);

}  // namespace attn::gui
