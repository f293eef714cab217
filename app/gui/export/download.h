// A file or folder the window has just saved, handed to the user. On the desktop it is
// already where they chose (download.cpp: nothing to do). In the browser the page's files
// live only in its memory, so the browser downloads it (download_browser.cpp): a file as
// itself, a folder as <folder>.zip (io/zip_folder.h).
#pragma once

#include <string>
#include <utility>

#include "core/message.h"

namespace attn::gui {

// Empty when done (or nothing to do); else why the download could not be made.
Message offer_download(const std::string& path);

// An export's status line: `done` once `path` is handed to the user, else why it could not be.
inline Message after_download(const std::string& path, Message done) {
    Message not_downloaded = offer_download(path);
    return not_downloaded.empty() ? std::move(done) : std::move(not_downloaded);
}

}  // namespace attn::gui
