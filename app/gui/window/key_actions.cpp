#include "app/gui/window/key_actions.h"

#include <GLFW/glfw3.h>

namespace attn::gui {

Actions key_actions(const KeyPresses& presses, Playback& pb, bool presentation) {
    Actions out;
    for (const auto& [key, mods] : presses) {
        switch (key) {
            case GLFW_KEY_SPACE: pb.toggle_play(); break;
            case GLFW_KEY_RIGHT:
            case GLFW_KEY_PAGE_DOWN: pb.next(); break;
            case GLFW_KEY_LEFT:
            case GLFW_KEY_PAGE_UP: pb.previous(); break;
            case GLFW_KEY_HOME: pb.jump_to(0); break;
            case GLFW_KEY_END: pb.jump_to(pb.step_count() - 1); break;
            case GLFW_KEY_F: out.toggle_fullscreen = true; break;
            case GLFW_KEY_P: out.toggle_presentation = true; break;
            case GLFW_KEY_O: out.toggle_overview = true; break;  // View > Overview
            case GLFW_KEY_V: out.toggle_compare = true; break;  // View > Compare
            case GLFW_KEY_ESCAPE:
                // Leaving presentation mode also leaves full screen.
                if (presentation) out.toggle_presentation = true;
                out.leave_fullscreen = true;
                break;
            case GLFW_KEY_Q:
                if (mods & GLFW_MOD_CONTROL) out.quit = true;
                break;
            default: break;
        }
    }
    return out;
}

}  // namespace attn::gui
