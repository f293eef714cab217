#include <epoxy/gl.h>

#include "app/gui/gl/headless.h"

#include <GLFW/glfw3.h>

#include "app/gui/gl/leak_check.h"

namespace attn::gui {

HeadlessGl::HeadlessGl() {
    glfwSetErrorCallback(nullptr);  // failures are reported by the caller in one line
    if (!glfwInit()) return;
    initialised_ = true;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_VISIBLE, GLFW_FALSE);
    window_ = glfwCreateWindow(64, 64, "attnviz (off-screen)", nullptr, nullptr);
    if (window_) glfwMakeContextCurrent(window_);
}

HeadlessGl::~HeadlessGl() {
    if (window_) glfwDestroyWindow(window_);
    if (initialised_) {
        gl::check_leaks_before_gl_shutdown();
        glfwTerminate();
    }
}

}  // namespace attn::gui
