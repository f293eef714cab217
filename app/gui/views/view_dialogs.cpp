#include "app/gui/views/view_dialogs.h"

#include <imgui.h>

#include "app/gui/shortcuts.h"
#include "app/gui/views/view_path_dialog.h"

namespace attn::gui {
namespace {

using Kind = DialogState::Kind;

const char* dialog_title(Kind kind) {
    switch (kind) {
        case Kind::OpenWeights: return "Open weights (.safetensors)";
        case Kind::OpenQuery: return "Open query (.npy)";
        case Kind::OpenKey: return "Open key (.npy)";
        case Kind::OpenValue: return "Open value (.npy)";
        case Kind::ExportSnapshot: return "Export snapshot (PNG)";
        case Kind::ExportAll: return "Export all steps (PNG per step)";
        case Kind::ExportTensors: return "Export tensors (.npy per step, weights, tokens)";
        case Kind::ExportCsv: return "Export current step as CSV";
        case Kind::Keys: return "Keyboard";
        case Kind::None: break;
    }
    return "";
}

}  // namespace

Actions draw_dialogs(DialogState& d, io::ProblemSources& sources, bool light_theme) {
    Actions out;
    if (d.kind == Kind::None) return out;
    const char* title = dialog_title(d.kind);
    if (d.just_opened) {
        ImGui::OpenPopup(title);
        d.just_opened = false;
    }
    const ImVec2 center = ImGui::GetMainViewport()->GetCenter();
    ImGui::SetNextWindowPos(center, ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    bool open = true;
    if (!ImGui::BeginPopupModal(title, &open, ImGuiWindowFlags_AlwaysAutoResize)) {
        if (!open || !ImGui::IsPopupOpen(title)) d.kind = Kind::None;
        return out;
    }
    if (d.close) {
        d.close = false;
        d.kind = Kind::None;
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return out;
    }
    if (d.kind == Kind::Keys) {
        // Two real columns, so keys and actions line up in any font.
        if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV | ImGuiTableFlags_SizingFixedFit)) {
            ImGui::TableSetupColumn("Key");
            ImGui::TableSetupColumn("Does");
            ImGui::TableHeadersRow();
            for (const Shortcut& shortcut : kShortcuts) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(shortcut.keys);
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(shortcut.action);
            }
            ImGui::EndTable();
        }
        if (ImGui::Button("Close")) {
            d.kind = Kind::None;
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
        return out;
    }
    draw_path_dialog(d, sources, light_theme, out, open);
    ImGui::EndPopup();
    return out;
}

}  // namespace attn::gui
