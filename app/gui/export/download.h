// A file or folder the window has just saved, handed to the user. On the desktop it is
// already where they chose (download.cpp: nothing to do). In the browser the page's files
// live only in its memory, so the browser downloads it (download_browser.cpp): a file as
// itself, a folder as <folder>.zip (io/zip_folder.h).
#pragma once

#include <string>

#include "core/message.h"

namespace attn::gui {

// Empty when done (or nothing to do); else why the download could not be made.
Message offer_download(const std::string& path);

}  // namespace attn::gui
