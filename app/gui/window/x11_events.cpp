#include "app/gui/window/x11_events.h"

#include <GLFW/glfw3.h>
#include <X11/Xlib.h>
#include <poll.h>

// From GLFW's native-access header, declared here because that header also pulls in
// Xrandr's (libxrandr-dev) for functions AttnViz does not use.
extern "C" Display* glfwGetX11Display(void);

#include <vector>

namespace attn::gui {
namespace {

// The X display GLFW talks to, or null when it is not an X11 window system.
Display* x11_display() {
    Display* display = glfwGetX11Display();
    glfwGetError(nullptr);  // not X11 (Wayland): GLFW's complaint is expected
    return display;
}

// Takes every queued event, moves equal or earlier key-press times of the same key one
// millisecond on, and puts the events back in their order.
void spread_key_times(Display* display) {
    static Time last_press[256] = {};  // by keycode (X keycodes are 8..255)
    std::vector<XEvent> events;
    while (XPending(display) > 0) {
        events.emplace_back();
        XNextEvent(display, &events.back());
    }
    for (XEvent& event : events) {
        if (event.type != KeyPress) continue;
        Time& last = last_press[event.xkey.keycode & 0xff];
        // Unsigned difference: also right when the server's millisecond clock wraps.
        if (last != 0 && event.xkey.time - last - 1 >= (Time{1} << 31)) event.xkey.time = last + 1;
        last = event.xkey.time;
    }
    for (auto it = events.rbegin(); it != events.rend(); ++it) XPutBackEvent(display, &*it);
}

}  // namespace

void poll_window_events() {
    if (Display* display = x11_display()) spread_key_times(display);
    glfwPollEvents();
}

bool wait_window_events(double seconds) {
    Display* display = x11_display();
    if (!display) {
        glfwWaitEventsTimeout(seconds);
        return true;
    }
    // Events GLFW posts to wake the loop (glfwPostEmptyEvent) come through the same
    // connection, so waiting on it misses nothing.
    if (XPending(display) == 0) {
        pollfd connection{ConnectionNumber(display), POLLIN, 0};
        ::poll(&connection, 1, static_cast<int>(seconds * 1000.0));
    }
    poll_window_events();
    return true;
}

bool full_screen_left_outside() { return false; }

}  // namespace attn::gui
