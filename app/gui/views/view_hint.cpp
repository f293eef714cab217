#include "app/gui/views/view_hint.h"

#include <imgui.h>

#include <algorithm>

#include "app/gui/views/view_registry.h"

namespace attn::gui {

Actions draw_first_run_hint(bool& hint_seen, bool have_trace, int step, const Rect& area) {
    if (hint_seen || !have_trace) return {};
    if (step != 0) {  // they found their way: no need to tell them
        hint_seen = true;
        return {};
    }
    const float fs = ImGui::GetFontSize();
    const float hint_w = std::min(area.w - fs, fs * 26.0f);
    ImGui::SetNextWindowPos(ImVec2(area.x + (area.w - hint_w) * 0.5f, area.y), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowSize(ImVec2(hint_w, 0.0f));
    ImGui::SetNextWindowBgAlpha(0.94f);
    ImGui::Begin("##first_run_hint", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_AlwaysAutoResize |
                                                  ImGuiWindowFlags_NoFocusOnAppearing);
    ImGui::TextWrapped("Step through the lesson with the Right and Left arrow keys (or PageDown / PageUp), "
                       "play it with Space, or click a step tab below. Press P for presentation mode. "
                       "Hover a cell to see how it was computed.");
    if (ImGui::Button("Got it")) hint_seen = true;
    ImGui::SameLine();
    ImGui::TextDisabled("(Help > Keyboard lists every key)");
    ImGui::End();
    return {};
}

}  // namespace attn::gui
