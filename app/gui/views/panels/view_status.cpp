#include "app/gui/views/panels/view_status.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/gui/views/view_registry.h"
#include "app/text/languages.h"

namespace attn::gui {

Actions draw_status_line(const UiState& ui, const ExportProgress& progress, double now, const Rect& area) {
    place_window(area.x, area.y, area.w, area.h);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ImGui::GetFontSize() * 0.5f, (area.h - ImGui::GetFontSize()) * 0.5f));
    ImGui::Begin("##status_line", nullptr, kTiledPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    ImGui::PopStyleVar();
    Actions out;
    if (progress.active) {
        const float fraction = progress.total > 0 ? static_cast<float>(progress.next) / static_cast<float>(progress.total) : 0.0f;
        const std::string line = text::trf(progress.animation ? "status.exporting_animation" : "status.exporting",
                                           {{"step", std::min(progress.next + 1, progress.total)},
                                            {"total", progress.total},
                                            {"folder", progress.folder}});
        ImGui::ProgressBar(fraction, ImVec2(ImGui::GetFontSize() * 8.0f, ImGui::GetFontSize()), "");
        ImGui::SameLine();
        if (progress.animation) {
            // A small button in the line's height: the status bar is one line of text.
            out.cancel_export = ImGui::SmallButton(text::label("status.cancel_export"));
            ImGui::SameLine();
        }
        ImGui::TextUnformatted(line.c_str());
    } else if (!ui.status.empty() && now - ui.status_time < 8.0 && now >= ui.status_time) {
        const std::string status = text::render(ui.status);
        ImGui::TextUnformatted(status.c_str());
        // A long message runs off the edge: the whole of it on hover.
        if (ImGui::IsItemHovered() && ImGui::GetItemRectMax().x > area.right()) ImGui::SetTooltip("%s", status.c_str());
    } else {
        ImGui::TextDisabled("%s", text::tr("status.ready"));
    }
    ImGui::End();
    return out;
}

}  // namespace attn::gui
