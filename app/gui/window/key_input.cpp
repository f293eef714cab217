#include "app/gui/window/key_input.h"

#include <GLFW/glfw3.h>
#include <imgui.h>
#include <backends/imgui_impl_glfw.h>

#include <algorithm>
#include <iterator>

namespace attn::gui {
namespace {

bool is_modifier_key(int key) {
    constexpr int kModifiers[] = {GLFW_KEY_LEFT_CONTROL, GLFW_KEY_RIGHT_CONTROL, GLFW_KEY_LEFT_SHIFT, GLFW_KEY_RIGHT_SHIFT,
                                  GLFW_KEY_LEFT_ALT,     GLFW_KEY_RIGHT_ALT,     GLFW_KEY_LEFT_SUPER, GLFW_KEY_RIGHT_SUPER};
    return std::find(std::begin(kModifiers), std::end(kModifiers), key) != std::end(kModifiers);
}

KeyInput* input_of(GLFWwindow* window) { return static_cast<KeyInput*>(glfwGetWindowUserPointer(window)); }

void on_key(GLFWwindow* window, int key, int scancode, int action, int mods) {
    KeyInput* input = input_of(window);
    if (!input) return;
    input->touched();
    input->queue.push(InputEvent::key_event(key, scancode, action, mods, action == GLFW_RELEASE, is_modifier_key(key)));
}

void on_mouse_button(GLFWwindow* window, int button, int action, int mods) {
    KeyInput* input = input_of(window);
    if (!input) return;
    input->touched();
    input->queue.push(InputEvent::mouse_event(button, action, mods, action == GLFW_RELEASE));
}

void on_char(GLFWwindow* window, unsigned int codepoint) {
    KeyInput* input = input_of(window);
    if (!input) return;
    input->touched();
    input->queue.push(InputEvent::char_event(codepoint));
}

// The pointer, the wheel and the window's size only need the frames to keep coming; ImGui's
// backend reads the pointer itself, and the wheel still goes to it.
void on_cursor_pos(GLFWwindow* window, double, double) {
    if (KeyInput* input = input_of(window)) input->touched();
}
void on_scroll(GLFWwindow* window, double dx, double dy) {
    if (KeyInput* input = input_of(window)) input->touched();
    ImGui_ImplGlfw_ScrollCallback(window, dx, dy);
}
void on_window_size(GLFWwindow* window, int, int) {
    if (KeyInput* input = input_of(window)) input->touched();
}

}  // namespace

void install_input_callbacks(GLFWwindow* window, KeyInput& input) {
    glfwSetWindowUserPointer(window, &input);
    glfwSetKeyCallback(window, on_key);
    glfwSetMouseButtonCallback(window, on_mouse_button);
    glfwSetCharCallback(window, on_char);
    glfwSetCursorPosCallback(window, on_cursor_pos);
    glfwSetScrollCallback(window, on_scroll);
    glfwSetWindowSizeCallback(window, on_window_size);
}

// Keys and text reach the backend exactly as if they had just arrived (it sets
// io.KeysDown, io.KeyCtrl... and the text queue). Mouse buttons override the backend's
// live reading, so a quick click is down for one whole frame and up in the next.
void feed_frame_input(GLFWwindow* window, KeyInput& input) {
    input.presses.clear();
    for (const InputEvent& e : input.queue.take_frame()) {
        if (e.kind == InputEvent::Kind::Char) {
            ImGui_ImplGlfw_CharCallback(window, e.codepoint);
            continue;
        }
        if (e.kind == InputEvent::Kind::MouseButton) {
            if (e.key >= 0 && e.key < IM_ARRAYSIZE(input.mouse_down)) input.mouse_down[e.key] = !e.is_release;
            continue;
        }
        ImGui_ImplGlfw_KeyCallback(window, e.key, e.scancode, e.action, e.mods);
        if (!e.is_release) input.presses.emplace_back(e.key, e.mods);
    }
    ImGuiIO& io = ImGui::GetIO();
    for (int b = 0; b < IM_ARRAYSIZE(input.mouse_down); ++b) io.MouseDown[b] = input.mouse_down[b];
}

}  // namespace attn::gui
