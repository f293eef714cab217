// The menu bar (File, View, Help) and its dialogs: open files by path, export options,
// the keyboard help. Actions that need GL (exports) are returned to the window loop.
#pragma once

#include <optional>

#include "app/gui/app_state.h"
#include "app/gui/export.h"

namespace attn::gui {

struct MenuResult {
    bool config_changed = false;
    bool theme_changed = false;
    bool toggle_presentation = false;
    bool toggle_fullscreen = false;
    bool quit = false;
    std::optional<ExportRequest> export_request;
};

MenuResult draw_menu(AppState& state);
// The dialogs (modal popups); call once per frame after the menu.
MenuResult draw_dialogs(AppState& state);

}  // namespace attn::gui
