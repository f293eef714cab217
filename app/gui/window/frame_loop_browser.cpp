#include "app/gui/window/frame_loop.h"

#include <GLFW/glfw3.h>
#include <emscripten.h>

// EM_ASM's JavaScript names its arguments $0, $1, ... and may have none, which -Wpedantic reports.
#pragma clang diagnostic ignored "-Wdollar-in-identifier-extension"
#pragma clang diagnostic ignored "-Wgnu-zero-variadic-macro-arguments"
#include <emscripten/html5.h>

#include <cmath>

namespace attn::gui {
namespace {

// The frames after which the page counts as shown: the first trace is computed in the
// first frame (no worker thread here) and drawn in the next; one more lets ImGui settle
// the layout of windows that appeared.
constexpr int kFirstFrames = 3;

struct BrowserLoop {
    std::function<bool()> frame;
    int frames = 0;
};

// The canvas fills the page (index.html's CSS); its pixels are the screen's: CSS size x
// devicePixelRatio, which is also the content scale the window reads (web/glfw33.cpp), so
// text is as sharp and as large as on a desktop of that screen. The GLFW window (and with
// it ImGui's display size and the mouse, which emscripten scales to canvas pixels)
// follows whenever the page's size or zoom changes.
void fit_canvas_to_page() {
    GLFWwindow* window = glfwGetCurrentContext();
    if (!window) return;
    double css_w = 0, css_h = 0;
    if (emscripten_get_element_css_size("#canvas", &css_w, &css_h) != EMSCRIPTEN_RESULT_SUCCESS) return;
    const double ratio = emscripten_get_device_pixel_ratio();
    const int w = static_cast<int>(std::lround(css_w * ratio)), h = static_cast<int>(std::lround(css_h * ratio));
    int now_w = 0, now_h = 0;
    glfwGetWindowSize(window, &now_w, &now_h);
    // Not glfwSetWindowSize: emscripten's asks for full screen when the size equals the
    // screen's. The canvas's resize listener tells GLFW the new size. A resized canvas is
    // blank until drawn: the next frame is drawn even when idle (window_events_browser.cpp).
    if (w > 0 && h > 0 && (w != now_w || h != now_h))
        EM_ASM({
            Browser.setCanvasSize($0, $1);
            Module.attnvizInput = true;
        }, w, h);
}

// Each of the browser's animation frames (about 60 a second while the tab is visible);
// an idle window draws only some of them (x11_events.h).
void browser_frame(void* arg) {
    auto* loop = static_cast<BrowserLoop*>(arg);
    fit_canvas_to_page();
    if (!loop->frame()) {
        emscripten_cancel_main_loop();
        return;
    }
    // index.html's attnvizFirstFrames takes the loading bar away and notes the time
    // (?bench); tests wait for window.attnvizReady.
    if (++loop->frames == kFirstFrames)
        EM_ASM({
            if (typeof window.attnvizFirstFrames === "function") window.attnvizFirstFrames();
        });
}

}  // namespace

bool run_frame_loop(std::function<bool()> frame) {
    // Lives as long as the page: the browser calls it after this function has returned.
    auto* loop = new BrowserLoop{std::move(frame)};
    // 0 frames per second: the browser's own pace (requestAnimationFrame); false: return
    // to the caller now instead of unwinding its stack.
    emscripten_set_main_loop_arg(browser_frame, loop, 0, false);
    return false;
}

}  // namespace attn::gui
