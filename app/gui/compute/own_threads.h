// Whether the window may start threads of its own (the compute worker, the PNG encoders).
// The browser build is single-threaded, so the page needs no cross-origin isolation and
// runs from any static host (README "In the browser"): there the same work runs inside
// the frame loop instead, between two frames.
#pragma once

#include "app/gui/compute/in_browser.h"

namespace attn::gui {

inline constexpr bool kOwnThreads = !kInBrowser;

}  // namespace attn::gui
