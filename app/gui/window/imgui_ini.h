// ImGui's own layout file (imgui.ini) read and written by us instead of by ImGui, so a
// damaged file gives the default layout and a message, and a save is atomic
// (temporary file + rename, never a half-written imgui.ini).
#pragma once

#include <string>

#include "core/message.h"

namespace attn::gui {

// Loads `path` into the current ImGui context. Returns an empty message when it was fine or
// missing, otherwise one line for the status bar (the layout then stays ImGui's default).
attn::Message load_imgui_ini(const std::string& path);
// Writes ImGui's settings to `path` when ImGui asks for it (io.WantSaveIniSettings) or
// when `force` is set (at exit). Does nothing when `path` is empty.
void save_imgui_ini(const std::string& path, bool force);
// True when `text` looks like an imgui.ini: text only, no NUL or control bytes.
bool looks_like_imgui_ini(const std::string& text);

}  // namespace attn::gui
