#include "app/gui/window/input_queue.h"

#include <algorithm>

namespace attn::gui {

InputEvent InputEvent::key_event(int key, int scancode, int action, int mods, bool is_release, bool is_modifier) {
    InputEvent e;
    e.kind = Kind::Key;
    e.key = key;
    e.scancode = scancode;
    e.action = action;
    e.mods = mods;
    e.is_release = is_release;
    e.is_modifier = is_modifier;
    return e;
}

InputEvent InputEvent::char_event(unsigned codepoint) {
    InputEvent e;
    e.kind = Kind::Char;
    e.codepoint = codepoint;
    return e;
}

InputEvent InputEvent::mouse_event(int button, int action, int mods, bool is_release) {
    InputEvent e;
    e.kind = Kind::MouseButton;
    e.key = button;
    e.action = action;
    e.mods = mods;
    e.is_release = is_release;
    return e;
}

namespace {
// Keys and mouse buttons share one numbering for "changed this frame": buttons below zero.
int channel_of(const InputEvent& e) { return e.kind == InputEvent::Kind::MouseButton ? -1 - e.key : e.key; }
}  // namespace

void InputQueue::push(const InputEvent& event) { pending_.push_back(event); }

std::vector<InputEvent> InputQueue::take_frame() {
    std::vector<InputEvent> frame;
    std::vector<int> keys_changed;  // keys and buttons whose state this frame already changed
    bool text_typed = false;
    bool key_pressed = false;       // a non-modifier key went down (or repeated)
    while (!pending_.empty()) {
        const InputEvent& e = pending_.front();
        if (e.kind == InputEvent::Kind::Char) {
            text_typed = true;
        } else {
            const int channel = channel_of(e);
            if (std::find(keys_changed.begin(), keys_changed.end(), channel) != keys_changed.end()) break;
            if (e.is_modifier && key_pressed) break;
            if (!e.is_modifier && !e.is_release) {
                if (key_pressed || text_typed) break;
                key_pressed = true;
            }
            keys_changed.push_back(channel);
        }
        frame.push_back(e);
        pending_.pop_front();
    }
    return frame;
}

}  // namespace attn::gui
