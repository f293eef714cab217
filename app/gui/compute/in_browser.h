// Whether this is the browser build (make web, README "In the browser"): what a page
// cannot do that the desktop does is decided from it (own_threads.h), and the few places
// in the window that say so read it (a speaker notes window on a second screen, lesson
// pictures by a child process). A constant: each build keeps only its own side.
#pragma once

namespace attn::gui {

#ifdef __EMSCRIPTEN__
inline constexpr bool kInBrowser = true;
#else
inline constexpr bool kInBrowser = false;
#endif

}  // namespace attn::gui
