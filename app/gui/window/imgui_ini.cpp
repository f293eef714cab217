#include "app/gui/window/imgui_ini.h"

#include <imgui.h>

#include <algorithm>

#include "app/gui/state/settings.h"
#include "app/text/languages.h"

namespace attn::gui {

bool looks_like_imgui_ini(const std::string& text) {
    // ImGui's parser copes with odd lines, but binary data (a crash mid-write on an older
    // version, a wrong file copied over) is not a layout: start from the default instead.
    return std::none_of(text.begin(), text.end(), [](char c) {
        const auto u = static_cast<unsigned char>(c);
        return u < 32 && c != '\n' && c != '\r' && c != '\t';
    });
}

attn::Message load_imgui_ini(const std::string& path) {
    if (path.empty()) return {};
    attn::Message problem;
    const std::string text = read_config_file(path, &problem);
    if (!problem.empty()) return attn::Message("status.layout_problem", {{"problem", problem}});
    if (!looks_like_imgui_ini(text)) return attn::Message("status.layout_damaged");

    if (!text.empty()) ImGui::LoadIniSettingsFromMemory(text.data(), text.size());
    return {};
}

void save_imgui_ini(const std::string& path, bool force) {
    ImGuiIO& io = ImGui::GetIO();
    if (path.empty() || !(force || io.WantSaveIniSettings)) return;
    size_t size = 0;
    const char* text = ImGui::SaveIniSettingsToMemory(&size);  // clears WantSaveIniSettings
    write_config_file(path, std::string(text, size));
}

}  // namespace attn::gui
