// The dialogs: the one modal popup open at a time (DialogState), either the keyboard
// help or an open/export dialog (its body is in view_path_dialog). The menu opens them;
// what they ask for (an export, new input files) comes back as Actions.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/jobs.h"
#include "app/gui/state/session.h"

namespace attn::gui {

// The open dialog of `dialog`, once per frame after the menu; while one is open its edited
// copy comes back as dialog_edit. An open-file dialog returns the session's sources with
// the chosen path (sources_edit), or for a mask the session with the file read into it
// (session_edit, open_mask_file), and asks for a new trace.
Actions draw_dialogs(const DialogState& dialog, const Session& session, bool light_theme);

}  // namespace attn::gui
