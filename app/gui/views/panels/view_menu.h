// The menu bar (File, View, Help). Its entries open dialogs (view_dialogs) or change
// display settings; what needs the window loop comes back as Actions.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/jobs.h"
#include "app/gui/state/results.h"
#include "app/gui/state/screens.h"
#include "app/gui/state/session.h"
#include "app/gui/state/settings.h"
#include "app/io/problem.h"

namespace attn::gui {

// The main menu bar. `step` is the step on screen (export file names). What it changes
// comes back as edits: the File menu opens a dialog (dialog_edit), "Forget loaded files"
// empties the sources and drops the mask file opened (session_edit), Model picks the session's model (session_edit),
// View changes the settings (settings_edit), the storage strip (`show_storage`, UI) and the
// code panel (`show_code`, UI).
Actions draw_menu(const Session& session, const Results& results, int step, const Jobs& jobs, const UiSettings& settings,
                  bool& show_storage, bool& show_code, bool overview_open = false,  // overview_open: View > Overview's tick
                  const std::vector<ScreenInfo>& screens = {});  // View > Present on screen's list

}  // namespace attn::gui
