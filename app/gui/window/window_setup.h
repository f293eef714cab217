// Opening the main window and putting it back: its first place on the monitor, full
// screen on and off, the monitor's content scale, ImGui's layout file.
#pragma once

#include <string>

#include <vector>

#include "app/gui/state/screens.h"
#include "app/gui/state/settings.h"
#include "core/message.h"

struct GLFWwindow;

namespace attn::gui {

struct FullScreen {
    bool on = false;
    std::string screen;  // the monitor it is full screen on (ScreenInfo::name)
    int x = 100, y = 100, w = 1440, h = 900;  // the windowed placement to return to
};

// A GL 3.3 core window of the saved size (or 1440x900), shrunk to the primary monitor's
// work area with its frame, with its context current. nullptr when no window can be made.
GLFWwindow* open_main_window(const UiSettings& settings);
// Full screen on and off; on goes to the screen named `screen` (ScreenInfo::name; "" or
// one not connected: the primary). Already full screen on another screen: moves there.
void set_full_screen(GLFWwindow* window, FullScreen& fs, bool on, const std::string& screen = "");
// The monitors GLFW reports now, in its order (the primary first on X11).
std::vector<ScreenInfo> connected_screens();
// The monitor's content scale (2 on a HiDPI screen), clamped to 0.5..4.
float monitor_content_scale(GLFWwindow* window);
// Points ImGui at no file of its own and loads imgui.ini from the config folder (read and
// written by imgui_ini.cpp, checked and atomic). Returns the file's path ("" when there
// is no config folder); a problem reading it goes to `problem`.
std::string load_layout_file(Message& problem);

}  // namespace attn::gui
