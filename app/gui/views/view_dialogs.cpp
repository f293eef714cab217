#include "app/gui/views/view_dialogs.h"

#include <imgui.h>

#include "app/gui/shortcuts.h"
#include "app/gui/views/view_path_dialog.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

using text::label;
using text::tr;

using Kind = DialogState::Kind;

// The popup's title; its ImGui ID is the key, the same in every language.
const char* dialog_title(Kind kind) {
    switch (kind) {
        case Kind::OpenWeights: return label("dialog.open_weights");
        case Kind::OpenQuery: return label("dialog.open_query");
        case Kind::OpenKey: return label("dialog.open_key");
        case Kind::OpenValue: return label("dialog.open_value");
        case Kind::ExportSnapshot: return label("dialog.export_snapshot");
        case Kind::ExportAll: return label("dialog.export_all");
        case Kind::ExportTensors: return label("dialog.export_tensors");
        case Kind::ExportCsv: return label("dialog.export_csv");
        case Kind::Keys: return label("dialog.keys");
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
            ImGui::TableSetupColumn(label("dialog.keys.key"));
            ImGui::TableSetupColumn(label("dialog.keys.does"));
            ImGui::TableHeadersRow();
            for (const Shortcut& shortcut : kShortcuts) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                const std::string key = std::string("shortcut.") + shortcut.id;
                ImGui::TextUnformatted(tr(key + ".keys"));
                ImGui::TableNextColumn();
                ImGui::TextUnformatted(tr(key + ".action"));

            }
            ImGui::EndTable();
        }
        if (ImGui::Button(label("dialog.close"))) {

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
