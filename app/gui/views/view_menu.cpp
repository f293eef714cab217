#include "app/gui/views/view_menu.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <filesystem>

#include "app/gui/fonts_theme.h"
#include "app/gui/shortcuts.h"

namespace attn::gui {
namespace {

using Kind = DialogState::Kind;

void open_dialog(AppState& state, Kind kind, std::string path) {
    state.dialog.kind = kind;
    state.dialog.just_opened = true;
    state.dialog.error.clear();
    state.dialog.path = std::move(path);
}

const char* dialog_title(Kind kind) {
    switch (kind) {
        case Kind::OpenWeights: return "Open weights (.safetensors)";
        case Kind::OpenQuery: return "Open query (.npy)";
        case Kind::OpenKey: return "Open key (.npy)";
        case Kind::OpenValue: return "Open value (.npy)";
        case Kind::ExportSnapshot: return "Export snapshot (PNG)";
        case Kind::ExportAll: return "Export all steps (PNG per step)";
        case Kind::ExportTensors: return "Export tensors (.npy per step)";
        case Kind::ExportCsv: return "Export current step as CSV";
        case Kind::Keys: return "Keyboard";
        case Kind::None: break;
    }
    return "";
}

std::string default_export_dir() {
    std::error_code ec;
    const auto cwd = std::filesystem::current_path(ec);
    return (ec ? std::string(".") : cwd.string()) + "/attnviz_export";
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
        if (ImGui::MenuItem("Export snapshot...", nullptr, false, have)) {
            open_dialog(state, Kind::ExportSnapshot, default_export_dir() + "/snapshot.png");
        }
        if (ImGui::MenuItem("Export all steps...", nullptr, false, have && !state.export_progress.active)) {
            open_dialog(state, Kind::ExportAll, default_export_dir());
        }
        if (ImGui::MenuItem("Export tensors...", nullptr, false, have)) open_dialog(state, Kind::ExportTensors, default_export_dir() + "/tensors");
        if (ImGui::MenuItem("Export current step as CSV...", nullptr, false, have)) {
            const std::string name = state.trace->steps[static_cast<size_t>(state.playback.step())].name;
            open_dialog(state, Kind::ExportCsv, default_export_dir() + "/" + name + ".csv");
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
    const float width = ImGui::GetFontSize() * 34.0f;
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
    const bool is_open = d.kind == Kind::OpenWeights || d.kind == Kind::OpenQuery || d.kind == Kind::OpenKey ||
                         d.kind == Kind::OpenValue;
    ImGui::TextUnformatted(is_open ? "Path of the file:" : (d.kind == Kind::ExportAll || d.kind == Kind::ExportTensors
                                                                 ? "Folder to write into:" : "File to write:"));
    ImGui::SetNextItemWidth(width);
    if (ImGui::IsWindowAppearing() || d.refocus) {
        ImGui::SetKeyboardFocusHere();
        d.refocus = false;
    }
    bool submit = ImGui::InputText("##path", &d.path, ImGuiInputTextFlags_EnterReturnsTrue);
    if (d.kind == Kind::ExportSnapshot || d.kind == Kind::ExportAll) {
        ImGui::TextUnformatted("Resolution:");
        ImGui::SameLine();
        ImGui::RadioButton("1x", &d.scale_index, 0);
        ImGui::SameLine();
        ImGui::RadioButton("2x", &d.scale_index, 1);
        ImGui::SameLine();
        ImGui::RadioButton("4x", &d.scale_index, 2);
        ImGui::Checkbox("canvas only (uncheck: the whole window)", &d.canvas_only);
    }
    if (!d.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(theme_colors(state.settings.light_theme).error));
        ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
        ImGui::TextWrapped("%s", d.error.c_str());
        ImGui::PopTextWrapPos();
        ImGui::PopStyleColor();
    }
    submit |= ImGui::Button(is_open ? "Open" : "Export", ImVec2(ImGui::GetFontSize() * 6.0f, 0));
    ImGui::SameLine();
    const bool cancel = ImGui::Button("Cancel") || !open;
    if (submit) {
        d.refocus = true;
        std::error_code ec;
        if (is_open) {
            if (!std::filesystem::is_regular_file(d.path, ec)) {
                d.error = "no readable file at '" + d.path + "'; check the path";
            } else {
                std::string* slot = d.kind == Kind::OpenWeights ? &state.sources.weights_path
                                    : d.kind == Kind::OpenQuery ? &state.sources.query_path
                                    : d.kind == Kind::OpenKey   ? &state.sources.key_path
                                                                : &state.sources.value_path;
                *slot = d.path;
                out.config_changed = true;
                d.kind = Kind::None;
                ImGui::CloseCurrentPopup();
            }
        } else {
            ExportRequest request;
            request.path = d.path;
            request.scale = d.scale_index == 2 ? 4 : (d.scale_index == 1 ? 2 : 1);
            request.canvas_only = d.canvas_only;
            request.kind = d.kind == Kind::ExportSnapshot ? ExportKind::SnapshotPng
                           : d.kind == Kind::ExportAll    ? ExportKind::AllStepsPng
                           : d.kind == Kind::ExportCsv    ? ExportKind::StepCsv
                                                          : ExportKind::TensorsDir;
            out.export_request = request;
            // The dialog stays open until the window loop reports success (it sets d.kind = None).
        }
    } else if (cancel) {
        d.kind = Kind::None;
        ImGui::CloseCurrentPopup();
    }
    ImGui::EndPopup();
    return out;
}

}  // namespace attn::gui
