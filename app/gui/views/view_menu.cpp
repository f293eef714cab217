#include "app/gui/views/view_menu.h"

#include <imgui.h>

#include <filesystem>

#include "app/gui/export_path.h"
#include "app/gui/format.h"
#include "app/gui/views/view_model.h"
#include "app/gui/views/view_path_dialog.h"


namespace attn::gui {
namespace {

using Kind = DialogState::Kind;

void open_dialog(Jobs& jobs, Kind kind, std::string path) { open_path_dialog(jobs.dialog, kind, std::move(path)); }

// Where a new export goes: the folder of the previous export, else the base folder.
std::string export_folder(const Jobs& jobs) {
    std::error_code ec;
    const std::string& last = jobs.dialog.last_folder;
    if (!last.empty() && std::filesystem::is_directory(last, ec)) return last;
    return export_base_folder();
}

std::string with_extension(const std::string& name, const std::string& extension) {
    return std::filesystem::path(name).replace_extension(extension).string();
}

}  // namespace

Actions draw_menu(Session& session, const Results& results, int step, Jobs& jobs, UiSettings& settings,
                  bool& show_storage) {
    Actions out;
    io::ProblemSources& sources = session.sources;
    if (!ImGui::BeginMainMenuBar()) return out;
    if (ImGui::BeginMenu("File")) {
        if (ImGui::MenuItem("Open weights...")) open_dialog(jobs, Kind::OpenWeights, sources.weights_path);
        if (ImGui::MenuItem("Open query...")) open_dialog(jobs, Kind::OpenQuery, sources.query_path);
        if (ImGui::MenuItem("Open key...")) open_dialog(jobs, Kind::OpenKey, sources.key_path);
        if (ImGui::MenuItem("Open value...")) open_dialog(jobs, Kind::OpenValue, sources.value_path);
        if (ImGui::MenuItem("Forget loaded files", nullptr, false,
                            !sources.weights_path.empty() || !sources.query_path.empty() ||
                                !sources.key_path.empty() || !sources.value_path.empty())) {
            const auto tokens = sources.tokens;
            sources = io::ProblemSources{};
            sources.tokens = tokens;
            out.config_changed = true;
        }
        ImGui::Separator();
        const bool have = results.trace != nullptr;
        const Step* shown = results.step_at(step);
        const std::string step_file = shown ? snapshot_file_name(step + 1, shown->name()) : "";
        if (ImGui::MenuItem("Export snapshot...", nullptr, false, have)) {
            open_dialog(jobs, Kind::ExportSnapshot, export_folder(jobs) + "/" + step_file);
        }
        if (ImGui::MenuItem("Export all steps...", nullptr, false, have && !jobs.export_progress.active)) {
            open_dialog(jobs, Kind::ExportAll, export_folder(jobs) + "/attnviz_steps");
        }
        if (ImGui::MenuItem("Export tensors...", nullptr, false, have)) {
            open_dialog(jobs, Kind::ExportTensors, export_folder(jobs) + "/attnviz_tensors");
        }
        if (ImGui::MenuItem("Export current step as CSV...", nullptr, false, have)) {
            open_dialog(jobs, Kind::ExportCsv, export_folder(jobs) + "/" + with_extension(step_file, ".csv"));
        }
        ImGui::Separator();
        if (ImGui::MenuItem("Quit", "Ctrl+Q")) out.quit = true;
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Model")) {
        out |= draw_model_menu_items(session);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("View")) {
        if (ImGui::MenuItem("Presentation mode", "P")) out.toggle_presentation = true;
        if (ImGui::MenuItem("Full screen", "F")) out.toggle_fullscreen = true;
        if (ImGui::MenuItem("Light theme", nullptr, settings.light_theme)) {
            settings.light_theme = !settings.light_theme;
            out.theme_changed = true;
        }
        ImGui::MenuItem("Numbers in cells", nullptr, &settings.show_values);
        ImGui::Separator();
        ImGui::TextDisabled("Colour scale");
        if (ImGui::MenuItem("Stretch probabilities to the data", nullptr, &settings.stretch_probabilities))
            out.config_changed = true;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("Off: weights are coloured on the fixed 0..1 scale, so a near-uniform row looks pale.\n"
                              "On: 0..the step's largest value; small differences show, but the bar says \"stretched\".");
        if (ImGui::MenuItem("One scale across steps", nullptr, &settings.one_colour_scale)) out.config_changed = true;
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("On: every signed step shares one symmetric range (and stretched probabilities one top),\n"
                              "so a rescale such as / sqrt(d_h) or dropout's 1/(1-p) shows as a change of colour.\n"
                              "Off: steps that only move or rescale their source share its range; others have their own.");
        ImGui::Separator();
        ImGui::MenuItem("Storage strip", nullptr, &show_storage);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu("Help")) {
        if (ImGui::MenuItem("Keyboard...")) open_dialog(jobs, Kind::Keys, "");
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
    return out;
}

}  // namespace attn::gui
