// One frame of the whole UI, shared by the window, snapshots and exports: the normal
// layout (the registered views in their dock slots, see views/view_registry.h),
// presentation mode, or the canvas alone.
#pragma once

#include "app/gui/actions.h"
#include "app/gui/app_state.h"
#include "app/gui/frame_context.h"

namespace attn::gui {

// Draws every view for this frame and returns what the user asked for, merged.
Actions draw_frame(AppState& state, const FrameContext& ctx);

}  // namespace attn::gui
