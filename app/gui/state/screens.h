// The screens (monitors) the window can present on, as GLFW reports them, and which one
// presentation mode uses: `--screen N`, View > Present on screen (kept in the settings by
// name, since the numbers change when a screen is plugged in), else the primary one.
// Display-free: the window reads the monitors (window/window_setup.h) into this list.
#pragma once

#include <string>
#include <vector>

#include "core/message.h"
#include "core/result.h"

namespace attn::gui {

struct ScreenInfo {
    std::string name;  // GLFW's monitor name ("HDMI-1", "eDP-1", "Generic PnP Monitor")
    int x = 0, y = 0;  // its top-left corner on the desktop
    int w = 0, h = 0;  // its video mode, in pixels
    bool primary = false;
};

// What presentation mode needs to know about the choice of screen.
struct ScreenChoice {
    int index = 0;       // into the list; -1 when the list is empty
    Message problem;     // the screen asked for is not there (said in the status line)
};

// "2: HDMI-1 (1920 x 1080)": a screen as the menu and the messages name it (from 1).
std::string screen_label(const std::vector<ScreenInfo>& screens, int index);
// `--screen N` (N counts from 1, as the menu does): the screen's index, or the message
// naming the screens there are ("--screen 5: there is 1 screen: 1: ...").
Result<int> screen_by_number(const std::vector<ScreenInfo>& screens, int number);
// The screen to present on: the one named `wanted` (a name saved by View > Present on
// screen or --screen), else the primary, else the first. A name that is not connected
// gives the primary and says so.
ScreenChoice choose_screen(const std::vector<ScreenInfo>& screens, const std::string& wanted);
// The names in `now` that `before` lacked: a screen plugged in (offered, never moved to).
std::vector<std::string> new_screens(const std::vector<ScreenInfo>& before, const std::vector<ScreenInfo>& now);

}  // namespace attn::gui
