// Who drives the window's frames. On the desktop the loop is ours: `frame` runs until it
// returns false, then run_frame_loop returns true (frame_loop.cpp). In the browser the
// page's animation frames drive it (frame_loop_browser.cpp): `frame` is handed to
// emscripten_set_main_loop and run_frame_loop returns false at once, so the caller keeps
// everything `frame` uses alive and skips its clean-up (the page ends with its tab).
#pragma once

#include <functional>

namespace attn::gui {

bool run_frame_loop(std::function<bool()> frame);

}  // namespace attn::gui
