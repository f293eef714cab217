// One frame of the whole UI, shared by the window, snapshots and exports: the normal
// layout (the registered views in their dock slots, see views/view_registry.h),
// presentation mode, or the canvas alone.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/app_state.h"
#include "app/gui/state/apply_edits.h"
#include "app/gui/views/frame_context.h"

namespace attn::gui {

// Draws every view for this frame (each reads the state, see views/view_registry.h),
// applies their edits (apply_edits, state/apply_edits.h) after each dock slot, so later slots draw them in
// the same frame, and returns the rest of what the user asked for, merged, for the
// window loop.
Actions draw_frame(AppState& state, const FrameContext& ctx);

}  // namespace attn::gui
