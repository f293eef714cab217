// The folder listing under a dialog's path field: "Up", the folder shown, its sub-folders
// and matching files with their sizes. Clicking a folder opens it; clicking a file picks it.
#pragma once

#include <string>

#include "app/gui/state/file_chooser.h"

namespace attn::gui {

enum class ChooserAction {
    None,
    FolderChanged,  // the user opened another folder (the dialog keeps its file name)
    FilePicked,     // a file was clicked: `picked` is its full path
    FileChosen,     // a file was double-clicked: pick it and confirm
};

// Draws the listing `height` pixels tall. `picked` receives the clicked file's path.
ChooserAction draw_file_chooser(FileChooser& chooser, float width, float height, std::string& picked);

}  // namespace attn::gui
