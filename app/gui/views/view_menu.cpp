#include "app/gui/views/view_menu.h"

#include <imgui.h>

#include <filesystem>

#include "app/gui/export_path.h"
#include "app/gui/format.h"

#include "app/gui/fonts_theme.h"
#include "app/gui/shortcuts.h"

namespace attn::gui {
namespace {

using Kind = DialogState::Kind;

void open_dialog(AppState& state, Kind kind, std::string path) { open_path_dialog(state, kind, std::move(path)); }

// Where a new export goes: the folder of the previous export, else the base folder.
std::string export_folder(const AppState& state) {
    std::error_code ec;
    const std::string& last = state.dialog.last_folder;
    if (!last.empty() && std::filesystem::is_directory(last, ec)) return last;
    return export_base_folder();
}

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

std::string with_extension(const std::string& name, const std::string& extension) {
    return std::filesystem::path(name).replace_extension(extension).string();
}

}  // namespace

MenuResult draw_menu(AppState& state) {
    MenuResult out;
    if (!ImGui::BeginMainMenuBar()) return out;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Open weights...")) open_dialog(state, Kind::OpenWeights, state.sources.weights_path);
        if (ImGui::MenuItem("Open query...")) open_dialog(state, Kind::OpenQuery, state.sources.query_path);
        if (ImGui::MenuItem("Open key...")) open_dialog(state, Kind::OpenKey, state.sources.key_path);
        if (ImGui::MenuItem("Open value...")) open_dialog(state, Kind::OpenValue, state.sources.value_path);
        if (ImGui::MenuItem("Forget loaded files", nullptr, false,
                            !state.sources.weights_path.empty() || !state.sources.query_path.empty() ||
                                !state.sources.key_path.empty() || !state.sources.value_path.empty())) {
            const auto tokens = state.sources.tokens;
            state.sources = io::ProblemSources{};
            state.sources.tokens = tokens;
            out.config_changed = true;
        }
        ImGui::Separator();
        const bool have = state.trace != nullptr;
        const int step = have ? state.playback.step() : 0;
        const std::string step_file = have ? snapshot_file_name(step + 1, state.trace->steps[static_cast<size_t>(step)].name()) : "";
        if (ImGui::MenuItem("Export snapshot...", nullptr, false, have)) {
            open_dialog(state, Kind::ExportSnapshot, export_folder(state) + "/" + step_file);
        }
        if (ImGui::MenuItem("Export all steps...", nullptr, false, have && !state.export_progress.active)) {
            open_dialog(state, Kind::ExportAll, export_folder(state) + "/attnviz_steps");
        }
        if (ImGui::MenuItem("Export tensors...", nullptr, false, have)) {
            open_dialog(state, Kind::ExportTensors, export_folder(state) + "/attnviz_tensors");
        }
        if (ImGui::MenuItem("Export current step as CSV...", nullptr, false, have)) {
            open_dialog(state, Kind::ExportCsv, export_folder(state) + "/" + with_extension(step_file, ".csv"));
        }
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) out.quit = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        if (ImGui::MenuItem("Presentation mode", "P")) out.toggle_presentation = true;
        if (ImGui::MenuItem("Full screen", "F")) out.toggle_fullscreen = true;
        if (ImGui::MenuItem("Light theme", nullptr, state.settings.light_theme)) {
            state.settings.light_theme = !state.settings.light_theme;
            out.theme_changed = true;
        }
        ImGui::MenuItem("Numbers in cells", nullptr, &state.settings.show_values);
        ImGui::MenuItem("Storage strip", nullptr, &state.show_storage);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        if (ImGui::MenuItem("Keyboard...")) open_dialog(state, Kind::Keys, "");
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
    return out;
}

MenuResult draw_dialogs(AppState& state) {
    MenuResult out;
    DialogState& d = state.dialog;
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
    draw_path_dialog(state, out, open);
    ImGui::EndPopup();
    return out;
}

}  // namespace attn::gui
