// The GLFW 3.3 functions that emscripten's GLFW (3.2 level) lacks, for the browser build
// (declared in web/include/GLFW/glfw3.h).
#include <GLFW/glfw3.h>
#include <emscripten.h>
#include <emscripten/html5.h>

extern "C" {

void glfwGetWindowContentScale(GLFWwindow*, float* xscale, float* yscale) {
    const float ratio = static_cast<float>(emscripten_get_device_pixel_ratio());
    if (xscale) *xscale = ratio;
    if (yscale) *yscale = ratio;
}

void glfwGetMonitorWorkarea(GLFWmonitor*, int* xpos, int* ypos, int* width, int* height) {
    if (xpos) *xpos = 0;
    if (ypos) *ypos = 0;
    // In canvas pixels (CSS pixels x devicePixelRatio), as the window's size is.
    if (width) *width = EM_ASM_INT({ return Math.round(window.innerWidth * window.devicePixelRatio); });
    if (height) *height = EM_ASM_INT({ return Math.round(window.innerHeight * window.devicePixelRatio); });
}

void glfwWindowHintString(int, const char*) {}

int glfwGetError(const char** description) {
    if (description) *description = nullptr;
    return 0;
}

}  // extern "C"
