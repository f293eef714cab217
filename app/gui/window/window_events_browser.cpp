// The browser side of x11_events.h: the page hands input events to GLFW between two
// animation frames, so there is nothing to read or wait for here (and no X11 key times).
#include "app/gui/window/x11_events.h"

namespace attn::gui {

void poll_window_events() {}

void wait_window_events(double) {}

}  // namespace attn::gui
