#include "app/gui/window/window_setup.h"

#include <GLFW/glfw3.h>
#include <imgui.h>

#include <algorithm>
#include <filesystem>

#include "app/gui/display/layout.h"
#include "app/gui/window/imgui_ini.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

Rect primary_work_area() {
    GLFWmonitor* monitor = glfwGetPrimaryMonitor();
    if (!monitor) return Rect{};
    int x = 0, y = 0, w = 0, h = 0;
    glfwGetMonitorWorkarea(monitor, &x, &y, &w, &h);
    return Rect{static_cast<float>(x), static_cast<float>(y), static_cast<float>(w), static_cast<float>(h)};
}

// The title bar and borders count too: the whole frame must fit the work area.
void fit_frame_to(GLFWwindow* window, const Rect& first_place, const Rect& work) {
    int fl = 0, ft = 0, fr = 0, fb = 0;
    glfwGetWindowFrameSize(window, &fl, &ft, &fr, &fb);
    const Rect framed = fit_window(static_cast<int>(first_place.w) + fl + fr, static_cast<int>(first_place.h) + ft + fb, work);
    glfwSetWindowSize(window, static_cast<int>(framed.w) - fl - fr, static_cast<int>(framed.h) - ft - fb);
    glfwSetWindowPos(window, static_cast<int>(framed.x) + fl, static_cast<int>(framed.y) + ft);
}

}  // namespace

GLFWwindow* open_main_window(const UiSettings& settings) {
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    // WM_CLASS "attnviz", the desktop entry's StartupWMClass (packaging/attnviz.desktop.in):
    // the dock shows the installed icon for the window instead of a second, generic one.
    glfwWindowHintString(GLFW_X11_CLASS_NAME, "attnviz");
    glfwWindowHintString(GLFW_X11_INSTANCE_NAME, "attnviz");
    // A 1024x768 projector must not get a 1440x900 window with its edges off-screen.
    const Rect work = primary_work_area();
    const Rect first_place = fit_window(settings.window_width, settings.window_height, work);
    GLFWwindow* window = glfwCreateWindow(static_cast<int>(first_place.w), static_cast<int>(first_place.h),
                                          text::tr("window.title"), nullptr, nullptr);
    if (!window) return nullptr;
    if (work.w > 0.0f) fit_frame_to(window, first_place, work);
    glfwMakeContextCurrent(window);
    glfwSwapInterval(1);
    return window;
}

std::vector<ScreenInfo> connected_screens() {
    std::vector<ScreenInfo> screens;
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    GLFWmonitor* primary = glfwGetPrimaryMonitor();
    for (int i = 0; monitors && i < count; ++i) {
        ScreenInfo s;
        const char* name = glfwGetMonitorName(monitors[i]);
        s.name = name ? name : "";
        glfwGetMonitorPos(monitors[i], &s.x, &s.y);
        if (const GLFWvidmode* mode = glfwGetVideoMode(monitors[i])) {
            s.w = mode->width;
            s.h = mode->height;
        }
        s.primary = monitors[i] == primary;
        screens.push_back(std::move(s));
    }
    return screens;
}

void set_full_screen(GLFWwindow* window, FullScreen& fs, bool on, const std::string& screen) {
    if (on == fs.on && (!on || screen == fs.screen)) return;
    if (on) {
        if (!fs.on) {
            glfwGetWindowPos(window, &fs.x, &fs.y);
            glfwGetWindowSize(window, &fs.w, &fs.h);
        }
        int count = 0;
        GLFWmonitor** monitors = glfwGetMonitors(&count);
        const ScreenChoice choice = choose_screen(connected_screens(), screen);
        GLFWmonitor* monitor = monitors && choice.index >= 0 && choice.index < count ? monitors[choice.index] : nullptr;
        const GLFWvidmode* mode = monitor ? glfwGetVideoMode(monitor) : nullptr;
        if (!mode) return;
        glfwSetWindowMonitor(window, monitor, 0, 0, mode->width, mode->height, mode->refreshRate);
        fs.screen = screen;
    } else {
        // Back to the placement before full screen, but never to a window too small to use
        // (it may have been dragged down to a few pixels before).
        glfwSetWindowMonitor(window, nullptr, fs.x, fs.y, std::max(fs.w, 640), std::max(fs.h, 480), 0);
    }
    fs.on = on;
}

float monitor_content_scale(GLFWwindow* window) {
    float x = 1.0f, y = 1.0f;
    glfwGetWindowContentScale(window, &x, &y);
    return std::clamp(std::max(x, y), 0.5f, 4.0f);
}

std::string load_layout_file(Message& problem) {
    ImGui::GetIO().IniFilename = nullptr;  // never the working directory
    const std::string dir = config_dir();
    if (dir.empty()) return "";
    std::error_code ec;
    std::filesystem::create_directories(dir, ec);
    if (!std::filesystem::is_directory(dir, ec)) return "";
    const std::string path = dir + "/imgui.ini";
    problem = load_imgui_ini(path);
    return path;
}

}  // namespace attn::gui
