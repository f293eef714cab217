// Where every field of Actions (state/actions.h) takes effect, in one file:
//   apply_edits    the edits of the state (session, input files, settings, hint, dialog),
//                  called by draw_frame after each dock slot, so the next slot draws them
//                  (state/apply_edits.h, a layer below views/frame.h, which calls it)
//   apply_actions  every field once the frame is on screen: the edits left (through
//                  apply_edits), then compute, a lesson's slide, fonts, theme, language,
//                  full screen and presentation, quit, export.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/app_state.h"
#include "app/gui/state/apply_edits.h"

namespace attn::gui {

struct WindowParts;

// Applies every field of `actions`: the edits (apply_edits), then the flags and the export
// request. `now`: glfwGetTime.
void apply_actions(AppState& state, Actions& actions, WindowParts& parts, double now);
// Full screen on the screen the settings name (View > Present on screen, --screen); when
// it is not connected, on the primary one, and the status line (and the presenter) say so.
void present_full_screen(AppState& state, WindowParts& parts, double now);

}  // namespace attn::gui
