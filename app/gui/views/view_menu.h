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
    bool language_changed = false;  // the fonts must be rebuilt for the new language's glyphs

    bool toggle_presentation = false;
    bool toggle_fullscreen = false;
    bool quit = false;
    std::optional<ExportRequest> export_request;
};

MenuResult draw_menu(AppState& state);
// The dialogs (modal popups); call once per frame after the menu.
MenuResult draw_dialogs(AppState& state);
// Opens the open/export dialog `kind` with `path` in its field and the listing beside it.
void open_path_dialog(AppState& state, DialogState::Kind kind, std::string path);
// Inside an open or export dialog's popup: the path field, the folder listing, the
// checks and questions ("replace?", "create folder?"), the buttons. `open` is false once
// the popup's close button was pressed. (views/view_path_dialog.cpp)
void draw_path_dialog(AppState& state, MenuResult& out, bool open);

}  // namespace attn::gui
