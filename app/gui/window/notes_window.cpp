#include "app/gui/window/notes_window.h"

#include <epoxy/gl.h>

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>
#include <backends/imgui_impl_opengl3.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>

#include "app/gui/gl/gl_objects.h"
#include "app/gui/views/panels/view_presenter.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/gui/gl/shader_sources.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

bool forced_by_test() {
    const char* v = std::getenv("ATTNVIZ_NOTES_WINDOW");
    return v && std::strcmp(v, "1") == 0;
}

// The monitor whose area holds the main window's centre.
GLFWmonitor* monitor_of(GLFWwindow* main, GLFWmonitor** monitors, int count) {
    if (GLFWmonitor* full = glfwGetWindowMonitor(main)) return full;
    int x = 0, y = 0, w = 0, h = 0;
    glfwGetWindowPos(main, &x, &y);
    glfwGetWindowSize(main, &w, &h);
    for (int i = 0; i < count; ++i) {
        int mx = 0, my = 0, mw = 0, mh = 0;
        glfwGetMonitorWorkarea(monitors[i], &mx, &my, &mw, &mh);
        if (x + w / 2 >= mx && x + w / 2 < mx + mw && y + h / 2 >= my && y + h / 2 < my + mh) return monitors[i];
    }
    return glfwGetPrimaryMonitor();
}

// Where the notes go: another monitor's work area (or, forced, a corner of the only one).
bool notes_area(GLFWwindow* main, int& x, int& y, int& w, int& h) {
    int count = 0;
    GLFWmonitor** monitors = glfwGetMonitors(&count);
    if (!monitors || count < 1) return false;
    GLFWmonitor* shown = monitor_of(main, monitors, count);
    for (int i = 0; i < count; ++i) {
        if (monitors[i] == shown) continue;
        glfwGetMonitorWorkarea(monitors[i], &x, &y, &w, &h);
        return w > 0 && h > 0;
    }
    if (!forced_by_test()) return false;
    // Forced on one monitor: its bottom-right third.
    int mx = 0, my = 0, mw = 0, mh = 0;
    glfwGetMonitorWorkarea(monitors[0], &mx, &my, &mw, &mh);
    w = std::max(320, mw / 3);
    h = std::max(240, mh / 3);
    x = mx + std::max(0, mw - w);
    y = my + std::max(0, mh - h);
    return true;
}

}  // namespace

void open_notes_window_if_wanted(NotesWindow& notes, GLFWwindow* main, const PresentUi& present, float scale) {
    if (notes.tried || present.slides == 0) return;
    notes.tried = true;
    int x = 0, y = 0, w = 0, h = 0;
    if (!notes_area(main, x, y, w, h)) return;
    glfwWindowHint(GLFW_CONTEXT_VERSION_MAJOR, 3);
    glfwWindowHint(GLFW_CONTEXT_VERSION_MINOR, 3);
    glfwWindowHint(GLFW_OPENGL_PROFILE, GLFW_OPENGL_CORE_PROFILE);
    glfwWindowHint(GLFW_OPENGL_FORWARD_COMPAT, GLFW_TRUE);
    glfwWindowHint(GLFW_FOCUSED, GLFW_FALSE);  // the keys stay with the presentation
    glfwWindowHint(GLFW_FOCUS_ON_SHOW, GLFW_FALSE);
    notes.window = glfwCreateWindow(w, h, text::tr("present.notes_window"), nullptr, main);
    glfwDefaultWindowHints();
    if (!notes.window) return;
    glfwSetWindowPos(notes.window, x, y);
    ImGuiContext* main_context = ImGui::GetCurrentContext();
    glfwMakeContextCurrent(notes.window);
    glfwSwapInterval(0);  // never wait for this window's vertical blank
    notes.context = ImGui::CreateContext();
    ImGui::SetCurrentContext(notes.context);
    ImGui::GetIO().IniFilename = nullptr;
    ImGui_ImplGlfw_InitForOpenGL(notes.window, false);
    ImGui_ImplOpenGL3_Init(shaders::glsl_version);
    load_fonts(scale * 1.5f);  // read from across a desk
    apply_theme(false, scale * 1.5f);
    ImGui::SetCurrentContext(main_context);
    glfwMakeContextCurrent(main);
}

void move_notes_window(NotesWindow& notes, GLFWwindow* main) {
    int x = 0, y = 0, w = 0, h = 0;
    if (!notes.open() || !notes_area(main, x, y, w, h)) return;
    glfwSetWindowPos(notes.window, x, y);
    glfwSetWindowSize(notes.window, w, h);
}

void draw_notes_window(NotesWindow& notes, GLFWwindow* main, const PresentUi& present, double now) {
    if (!notes.open()) return;
    if (glfwWindowShouldClose(notes.window)) {
        close_notes_window(notes, main);
        return;
    }
    int fb_w = 0, fb_h = 0;
    glfwGetFramebufferSize(notes.window, &fb_w, &fb_h);
    if (fb_w <= 0 || fb_h <= 0) return;
    ImGuiContext* main_context = ImGui::GetCurrentContext();
    glfwMakeContextCurrent(notes.window);
    ImGui::SetCurrentContext(notes.context);
    ImGui_ImplOpenGL3_NewFrame();
    ImGui_ImplGlfw_NewFrame();
    ImGui::NewFrame();
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(ImGui::GetIO().DisplaySize);
    ImGui::Begin("##notes", nullptr, ImGuiWindowFlags_NoDecoration | ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoSavedSettings);
    draw_note_text(present, now);
    ImGui::End();
    ImGui::Render();
    gl::Framebuffer::bind_default(fb_w, fb_h);
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    gl::clear_color(bg.x, bg.y, bg.z, 1.0f);
    ImGui_ImplOpenGL3_RenderDrawData(ImGui::GetDrawData());
    glfwSwapBuffers(notes.window);
    ImGui::SetCurrentContext(main_context);
    glfwMakeContextCurrent(main);
}

void close_notes_window(NotesWindow& notes, GLFWwindow* main) {
    if (!notes.open()) return;
    ImGuiContext* main_context = ImGui::GetCurrentContext();
    glfwMakeContextCurrent(notes.window);
    ImGui::SetCurrentContext(notes.context);
    ImGui_ImplOpenGL3_Shutdown();
    ImGui_ImplGlfw_Shutdown();
    ImGui::DestroyContext(notes.context);
    ImGui::SetCurrentContext(main_context);
    glfwMakeContextCurrent(main);
    glfwDestroyWindow(notes.window);
    notes.window = nullptr;
    notes.context = nullptr;
}

}  // namespace attn::gui
