// Waiting for and reading window events so that no key press is lost.
//
// Why: GLFW 3.3 on X11 (Debian 12's libglfw3) ignores a key press whose X timestamp is not
// later than the previous press of the same key, to drop the copies an input method sends.
// Key presses that arrive within one millisecond (xdotool --delay 0, clickers, remote
// desktops, macros) share a timestamp, so the second of four quick Backspaces vanished.
// Before GLFW reads the queued events, each press is given a time at least one millisecond
// after the previous press of its key; nothing else about the events changes.
#pragma once

struct GLFWwindow;

namespace attn::gui {

// glfwPollEvents(), with the key times spread first (X11 only; elsewhere plain GLFW).
void poll_window_events();
// glfwWaitEventsTimeout(seconds), the same way: returns when an event arrived or the time
// passed, after handing the events to GLFW; true: draw a frame. In the browser nothing can
// wait (the page hands events to GLFW between its animation frames, about 60 a second):
// false while no input arrived and `seconds` have not passed since the last frame drawn,
// so an idle page draws two frames a second, as an idle desktop window does
// (window_events_browser.cpp).
bool wait_window_events(double seconds);
// Whether full screen ended without the window asking since the last call: in the browser
// the page's own Esc or menu leaves it, and the window must follow, or the next F would
// only undo a state the page no longer has (two presses to go full screen again). Always
// false on the desktop, where only the window leaves full screen.
bool full_screen_left_outside();

}  // namespace attn::gui
