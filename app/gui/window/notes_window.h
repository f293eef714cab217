// The speaker's own window: when GLFW reports a second monitor while a lesson is
// presented, the note, the next slide's title and a clock go to a window on the monitor
// the main window is not on (the laptop's screen, the class sees the projector). It has
// its own GL and ImGui contexts (ImGui 1.86 keeps the backends' data per context) and
// takes no input. ATTNVIZ_NOTES_WINDOW=1 opens it on a single monitor too (for tests).
#pragma once

#include "app/gui/state/present_ui.h"

struct GLFWwindow;
struct ImGuiContext;

namespace attn::gui {

struct NotesWindow {
    GLFWwindow* window = nullptr;
    ImGuiContext* context = nullptr;
    bool tried = false;  // opened (or found impossible) once; a closed window stays closed
    bool open() const { return window != nullptr; }
};

// Opens the window once when a lesson is presented in presentation mode (the main window
// is then full screen on its screen) and a second monitor (or the test
// variable) is there; leaves `main`'s GL and ImGui contexts current. Language and scale
// are the main window's (`scale`).
void open_notes_window_if_wanted(NotesWindow& notes, GLFWwindow* main, const PresentUi& present, float scale);
// After the presentation moved to another screen (View > Present on screen): the notes
// window goes to a screen the presentation is not on.
void move_notes_window(NotesWindow& notes, GLFWwindow* main);
// Draws one frame of the notes window (nothing when it is not open, or it was closed by
// its own close button); `main`'s contexts are current again afterwards.
void draw_notes_window(NotesWindow& notes, GLFWwindow* main, const PresentUi& present, double now);
// Closes it (before the main window's ImGui context goes).
void close_notes_window(NotesWindow& notes, GLFWwindow* main);

}  // namespace attn::gui
