// The status line along the bottom edge: the latest message (an export finished, a
// settings file was unreadable) for a few seconds, the progress of "export all steps" or
// of an animation (with Cancel, returned as Actions::cancel_export), else "ready". Exports report here, never inside a view.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/jobs.h"
#include "app/gui/display/layout.h"
#include "app/gui/state/ui_state.h"

namespace attn::gui {

// Opens its own window over `area`; `now` is the window's clock.
Actions draw_status_line(const UiState& ui, const ExportProgress& progress, double now, const Rect& area);

}  // namespace attn::gui
