// Keyboard, text and mouse-button events from GLFW, held in an InputQueue (input_queue.h
// says why) and handed to ImGui's GLFW backend a frame at a time, always before NewFrame.
#pragma once

#include <utility>
#include <vector>

#include "app/gui/window/input_queue.h"

struct GLFWwindow;

namespace attn::gui {

struct KeyInput {
    InputQueue queue;
    bool mouse_down[5] = {};  // buttons as the queue has delivered them so far
    std::vector<std::pair<int, int>> presses;  // (key, mods) fed this frame, for app shortcuts
    // Frames still to draw after the last input even when nothing else moves: ImGui sizes
    // a window that just appeared (a dialog, its error line) a frame or two after it is
    // submitted, and an idle window that waited for events would show it cut off.
    int settle_frames = 0;
    void touched() { settle_frames = 3; }
};

// Routes `window`'s key, text and button events into `input` (its user pointer); the
// pointer, the wheel and resizes only note that input came (the backend reads them).
void install_input_callbacks(GLFWwindow* window, KeyInput& input);
// After the backend's NewFrame and before ImGui's: this frame's share of the queued
// events goes to the backend, and the mouse buttons are set from the queue.
void feed_frame_input(GLFWwindow* window, KeyInput& input);

}  // namespace attn::gui
