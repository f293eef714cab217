// The body of the open and export dialogs: a typed path (keyboard first), the listing of
// the folder it points into, and the questions asked before anything is overwritten.
#pragma once

#include <string>

#include "app/gui/state/actions.h"
#include "app/gui/state/jobs.h"
#include "app/gui/state/session.h"

namespace attn::gui {

// Opens the open/export dialog `kind` with `path` in its field and the listing beside it.
void open_path_dialog(DialogState& dialog, DialogState::Kind kind, std::string path);
// File > Export animation's "This step" / "All steps": the file name follows, from the
// step's ("11_attn_scores.gif") to kAllStepsAnimationName plus the format's extension and
// back, in the folder typed.
void follow_animation_steps(DialogState& dialog, bool all);
inline constexpr const char* kAllStepsAnimationName = "attnviz_all_steps";
// Inside an open or export dialog's popup: the path field, the folder listing, the
// checks and questions ("replace?", "create folder?"), the buttons. `dialog` is the
// dialogs view's working copy; a file opened comes back as out.sources_edit (a mask file,
// read and checked at once, as out.session_edit; one refused keeps the dialog open with
// the reason). `open` is false once the popup's close button was pressed.
void draw_path_dialog(DialogState& dialog, const Session& session, bool light_theme, Actions& out, bool open);

}  // namespace attn::gui
