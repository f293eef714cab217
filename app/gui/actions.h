// Actions: what the user asked for in one frame, returned by every view and merged in
// one place (draw_frame); the window loop carries them out (they need GL or GLFW).
#pragma once

#include <optional>

#include "app/gui/export.h"

namespace attn::gui {

struct Actions {
    bool config_changed = false;       // post a new compute request
    bool scale_changed = false;        // rebuild fonts
    bool theme_changed = false;        // restyle and re-bake textures
    bool toggle_presentation = false;
    bool toggle_fullscreen = false;
    bool leave_fullscreen = false;     // Escape: back to a window (after any toggle)
    bool quit = false;
    std::optional<ExportRequest> export_request;  // the first one asked for wins

    Actions& operator|=(const Actions& other) {
        config_changed |= other.config_changed;
        scale_changed |= other.scale_changed;
        theme_changed |= other.theme_changed;
        toggle_presentation |= other.toggle_presentation;
        toggle_fullscreen |= other.toggle_fullscreen;
        leave_fullscreen |= other.leave_fullscreen;
        quit |= other.quit;
        if (!export_request) export_request = other.export_request;
        return *this;
    }
};

}  // namespace attn::gui
