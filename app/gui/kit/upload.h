// Files from the user's own computer, for the open dialogs in the browser, where the
// page's file system is its own memory: upload_into() shows the browser's file picker
// and copies the files picked into `folder`, where the dialog's listing then shows them
// (upload_browser.cpp). On the desktop the dialogs read the user's folders directly, so
// there is no such button (upload.cpp).
#pragma once

#include <string>

namespace attn::gui {

bool can_upload();  // true in the browser only
void upload_into(const std::string& folder);

}  // namespace attn::gui
