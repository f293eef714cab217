#include "app/gui/views/view_menu.h"

#include <imgui.h>

#include <filesystem>

#include "app/gui/export_path.h"
#include "app/gui/format.h"

#include "app/gui/fonts_theme.h"
#include "app/gui/shortcuts.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

using text::label;
using text::tr;

using Kind = DialogState::Kind;

void open_dialog(AppState& state, Kind kind, std::string path) { open_path_dialog(state, kind, std::move(path)); }

// Where a new export goes: the folder of the previous export, else the base folder.
std::string export_folder(const AppState& state) {
    std::error_code ec;
    const std::string& last = state.dialog.last_folder;
    if (!last.empty() && std::filesystem::is_directory(last, ec)) return last;
    return export_base_folder();
}

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

std::string with_extension(const std::string& name, const std::string& extension) {
    return std::filesystem::path(name).replace_extension(extension).string();
}

// View > Language: every language the binary carries, each named in its own words;
// picking one switches at once (the window rebuilds its fonts, not the trace).
void language_menu(AppState& state, MenuResult& out) {
    if (!ImGui::BeginMenu(label("menu.view.language"))) return;
    for (const std::string& code : text::language_codes()) {
        const text::Catalogue* language = text::find_language(code);
        const std::string item = std::string(language->name()) + "###language." + code;
        if (ImGui::MenuItem(item.c_str(), nullptr, text::active().code() == code) && text::set_language(code)) {
            state.settings.language = code;
            out.language_changed = true;
        }
    }
    ImGui::EndMenu();
}


}  // namespace

MenuResult draw_menu(AppState& state) {
    MenuResult out;
    if (!ImGui::BeginMainMenuBar()) return out;
    if (ImGui::BeginMenu(label("menu.file"))) {
        if (ImGui::MenuItem(label("menu.file.open_weights"))) open_dialog(state, Kind::OpenWeights, state.sources.weights_path);
        if (ImGui::MenuItem(label("menu.file.open_query"))) open_dialog(state, Kind::OpenQuery, state.sources.query_path);
        if (ImGui::MenuItem(label("menu.file.open_key"))) open_dialog(state, Kind::OpenKey, state.sources.key_path);
        if (ImGui::MenuItem(label("menu.file.open_value"))) open_dialog(state, Kind::OpenValue, state.sources.value_path);
        if (ImGui::MenuItem(label("menu.file.forget"), nullptr, false,
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
        if (ImGui::MenuItem(label("menu.file.export_snapshot"), nullptr, false, have)) {
            open_dialog(state, Kind::ExportSnapshot, export_folder(state) + "/" + step_file);
        }
        if (ImGui::MenuItem(label("menu.file.export_all"), nullptr, false, have && !state.export_progress.active)) {
            open_dialog(state, Kind::ExportAll, export_folder(state) + "/attnviz_steps");
        }
        if (ImGui::MenuItem(label("menu.file.export_tensors"), nullptr, false, have)) {
            open_dialog(state, Kind::ExportTensors, export_folder(state) + "/attnviz_tensors");
        }
        if (ImGui::MenuItem(label("menu.file.export_csv"), nullptr, false, have)) {
            open_dialog(state, Kind::ExportCsv, export_folder(state) + "/" + with_extension(step_file, ".csv"));
        }
        ImGui::Separator();
        if (ImGui::MenuItem(label("menu.file.quit"), "Ctrl+Q")) out.quit = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(label("menu.view"))) {
        if (ImGui::MenuItem(label("menu.view.presentation"), "P")) out.toggle_presentation = true;
        if (ImGui::MenuItem(label("menu.view.full_screen"), "F")) out.toggle_fullscreen = true;
        if (ImGui::MenuItem(label("menu.view.light_theme"), nullptr, state.settings.light_theme)) {
            state.settings.light_theme = !state.settings.light_theme;
            out.theme_changed = true;
        }
        ImGui::MenuItem(label("menu.view.numbers"), nullptr, &state.settings.show_values);
        ImGui::MenuItem(label("menu.view.storage"), nullptr, &state.show_storage);
        language_menu(state, out);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(label("menu.help"))) {
        if (ImGui::MenuItem(label("menu.help.keyboard"))) open_dialog(state, Kind::Keys, "");
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
    draw_path_dialog(state, out, open);
    ImGui::EndPopup();
    return out;
}

}  // namespace attn::gui
