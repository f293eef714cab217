// InputQueue: keyboard and mouse-button events from the window system, handed to ImGui a
// frame at a time.
//
// Why: Dear ImGui 1.86 samples key state once per frame (io.KeysDown, io.KeyCtrl...) and
// checks in InputText that the modifiers it merged at NewFrame (io.KeyMods) still match
// io.KeyCtrl/KeyShift. Fast input (xdotool --delay 0, clickers, remote desktops, macros)
// can press and release a key, or tap Shift, between two frames. Feeding such a burst at
// once either loses the press or, if state is patched after NewFrame, trips ImGui's assert.
// Instead every event waits in arrival order and each frame takes the longest prefix that
// ImGui can represent as one frame's state; the rest waits for the next frame. Nothing is
// ever changed after NewFrame.
//
// Pure logic: no GLFW or ImGui here, so the trickling rules are unit-tested.
#pragma once

#include <cstddef>
#include <deque>
#include <vector>

namespace attn::gui {

struct InputEvent {
    enum class Kind { Key, Char, MouseButton };
    Kind kind = Kind::Key;
    int key = 0;               // window-system key code (Kind::Key) or button (Kind::MouseButton)
    int scancode = 0;
    int action = 0;            // press, release or repeat, as the window system numbers them
    int mods = 0;              // modifier bits at the time of the event
    bool is_release = false;   // action means "released"
    bool is_modifier = false;  // Ctrl, Shift, Alt or Super
    unsigned codepoint = 0;    // Kind::Char: the typed character

    static InputEvent key_event(int key, int scancode, int action, int mods, bool is_release, bool is_modifier);
    static InputEvent char_event(unsigned codepoint);
    static InputEvent mouse_event(int button, int action, int mods, bool is_release);
};

class InputQueue {
public:
    void push(const InputEvent& event);

    // Removes and returns the events for the next frame, in arrival order. A frame stops
    // before an event that would
    //   - change a key that already changed in this frame (a press and its release, or
    //     several Backspaces, or a click's press and release, land in separate frames, so
    //     none is lost),
    //   - press a second non-modifier key or mouse button, or press one after text was typed
    //     (ImGui handles a frame's text before its keys, so the order would flip),
    //   - change a modifier after a non-modifier press (Ctrl+A stays Ctrl+A).
    std::vector<InputEvent> take_frame();

    bool empty() const { return pending_.empty(); }
    std::size_t size() const { return pending_.size(); }

private:
    std::deque<InputEvent> pending_;
};

}  // namespace attn::gui
