// A hidden GLFW window whose only purpose is an OpenGL 3.3 core context for
// off-screen work (snapshots, the render bench). Needs an X display.
#pragma once

struct GLFWwindow;

namespace attn::gui {

class HeadlessGl {
public:
    HeadlessGl();   // glfwInit + hidden window + make current
    ~HeadlessGl();  // destroys the window, glfwTerminate
    HeadlessGl(const HeadlessGl&) = delete;
    HeadlessGl& operator=(const HeadlessGl&) = delete;
    bool ok() const { return window_ != nullptr; }

private:
    GLFWwindow* window_ = nullptr;
    bool initialised_ = false;
};

// The one-line message for a missing display (also used by the window).
inline constexpr const char* kNoDisplayMessage =
    "attnviz: error: no X display available (run under xvfb-run or set DISPLAY)";

}  // namespace attn::gui
