// The browser side of x11_events.h: the page hands input events to GLFW between two
// animation frames, so there is nothing to read or wait for here (and no X11 key times).
// What is left is whether an idle frame is worth drawing: the browser calls the frame
// loop about 60 times a second, and redrawing an unchanged window each time would keep a
// laptop's processor busy for nothing.
#include "app/gui/window/x11_events.h"

#include <emscripten.h>

// EM_ASM's JavaScript names its arguments $0, $1, ... and may have none, which -Wpedantic reports.
#pragma clang diagnostic ignored "-Wdollar-in-identifier-extension"
#pragma clang diagnostic ignored "-Wgnu-zero-variadic-macro-arguments"

namespace attn::gui {
namespace {

double g_last_drawn_ms = 0;  // emscripten_get_now() of the last frame drawn
int g_frames_drawn = 0;

// Whether the page had input since the last call: keys, the mouse, the wheel, touches,
// focus, a file picked, text composed. Listeners on the window in the capture phase see
// every event before emscripten's GLFW does; frame_loop_browser.cpp also sets the flag when
// the canvas changes size, and glfwPostEmptyEvent (web/glfw_page.js) when the window asks
// for its next frame (the slide list's next picture).
bool input_arrived() {
    return EM_ASM_INT({
               if (Module.attnvizInput === undefined) {
                   Module.attnvizInput = true;
                   const note = () => { Module.attnvizInput = true; };
                   for (const type of ["keydown", "keyup", "keypress", "mousedown", "mouseup", "mousemove", "mouseout",
                                       "wheel", "touchstart", "touchmove", "touchend", "touchcancel", "focus", "blur",
                                       "resize", "change", "input", "compositionend", "paste", "fullscreenchange"])
                       window.addEventListener(type, note, {capture: true, passive: true});
               }
               const arrived = Module.attnvizInput;
               Module.attnvizInput = false;
               return arrived ? 1 : 0;
           }) != 0;
}

// A frame is drawn now; the page test reads the count (window.Module.attnvizFramesDrawn).
void note_drawn() {
    g_last_drawn_ms = emscripten_get_now();
    EM_ASM({ Module.attnvizFramesDrawn = $0; }, ++g_frames_drawn);
}

}  // namespace

void poll_window_events() {
    input_arrived();  // this frame draws whatever came
    note_drawn();
}

bool wait_window_events(double seconds) {
    if (!input_arrived() && emscripten_get_now() - g_last_drawn_ms < seconds * 1000.0) return false;
    note_drawn();
    return true;
}

bool full_screen_left_outside() {
    // A fullscreenchange that leaves no element full screen sets the flag; read and cleared
    // every frame, so the window's own exit (F again) is forgotten before the next F.
    return EM_ASM_INT({
               if (Module.attnvizLeftFullScreen === undefined) {
                   Module.attnvizLeftFullScreen = false;
                   document.addEventListener("fullscreenchange", () => {
                       if (!document.fullscreenElement) Module.attnvizLeftFullScreen = true;
                   });
               }
               const left = Module.attnvizLeftFullScreen;
               Module.attnvizLeftFullScreen = false;
               return left ? 1 : 0;
           }) != 0;
}

}  // namespace attn::gui
