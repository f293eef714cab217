// The browser build's GLFW header (cmake/web.cmake puts web/include first): emscripten's
// own GLFW (3.2 level, -sUSE_GLFW=3), plus the few GLFW 3.3 names AttnViz uses, which
// web/glfw33.cpp supplies for the page. Nothing here exists on the desktop.
#pragma once
#include_next <GLFW/glfw3.h>

#define GLFW_FOCUS_ON_SHOW 0x0002000C       // a window hint: ignored in the page
#define GLFW_X11_CLASS_NAME 0x00024001      // window hint strings: ignored in the page
#define GLFW_X11_INSTANCE_NAME 0x00024002

#ifdef __cplusplus
extern "C" {
#endif
// The page's devicePixelRatio, the browser's content scale.
void glfwGetWindowContentScale(GLFWwindow* window, float* xscale, float* yscale);
// The browser window's inner size at (0, 0), in canvas pixels: the area a page can use.
void glfwGetMonitorWorkarea(GLFWmonitor* monitor, int* xpos, int* ypos, int* width, int* height);
void glfwWindowHintString(int hint, const char* value);  // nothing: no X11 class in a page
int glfwGetError(const char** description);               // 0: errors go to the console
#ifdef __cplusplus
}
#endif
