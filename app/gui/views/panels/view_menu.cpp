#include "app/gui/views/panels/view_menu.h"

#include <imgui.h>

#include <filesystem>

#include "app/gui/compute/in_browser.h"
#include "app/gui/display/format.h"
#include "app/gui/display/weight_lines.h"
#include "app/gui/kit/test_hook.h"
#include "app/gui/state/export_path.h"
#include "app/gui/views/controls/view_model.h"
#include "app/gui/views/controls/view_recipe.h"
#include "app/gui/views/dialogs/view_path_dialog.h"
#include "app/gui/views/panels/view_lesson_menu.h"
#include "app/io/torch_export.h"
#include "app/lesson/lesson.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

using text::label;
using text::tr;

using Kind = DialogState::Kind;

// Opens dialog `kind` on a copy of the jobs' dialog, handed back as the dialog's edit.
void open_dialog(const Jobs& jobs, Kind kind, std::string path, Actions& out) {
    DialogState dialog = jobs.dialog;
    open_path_dialog(dialog, kind, std::move(path));
    out.dialog_edit = std::move(dialog);
}

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

// View > Weights as: how weight steps are drawn (heatmap, lines, both); kept in the settings.
void weights_as_menu(UiSettings& settings, bool& settings_edited) {
    if (!ImGui::BeginMenu(label("menu.view.weights_as"))) {
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("menu.view.weights_as.tip"));
        return;
    }
    for (const WeightsAsRow& row : kWeightsAsRows) {
        if (ImGui::MenuItem(label(row.key), nullptr, settings.weights_as == row.name)) {
            settings.weights_as = row.name;
            settings_edited = true;
        }
    }
    ImGui::EndMenu();
}

// View > Language: every language the binary carries, each named in its own words;
// picking one switches at the end of the frame (apply_edits makes it the catalogue in
// use; the window rebuilds its fonts, not the trace).
void language_menu(UiSettings& settings, bool& settings_edited, Actions& out) {
    const bool open = ImGui::BeginMenu(label("menu.view.language"));
    note_item_for_tests("menu.view.language");  // the browser's page test picks a language here
    if (!open) return;
    for (const std::string& code : text::language_codes()) {
        const text::Catalogue* language = text::find_language(code);
        const std::string item = std::string(language->name()) + "###language." + code;
        const bool picked = ImGui::MenuItem(item.c_str(), nullptr, text::active().code() == code);
        note_item_for_tests("menu.view.language." + code);
        if (picked) {
            settings.language = code;
            settings_edited = true;
            out.language_changed = true;
        }
    }
    ImGui::EndMenu();
}

// View > Present on screen: the monitors connected now (one plugged in during the lesson
// appears here; nothing moves until it is picked), the one presentation uses ticked.
void present_on_screen_menu(const std::vector<ScreenInfo>& screens, const std::string& chosen, Actions& out) {
    const bool open = ImGui::BeginMenu(label("menu.view.present_on"));
    note_item_for_tests("menu.view.present_on");
    if (!open) {
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("menu.view.present_on.tip"));
        return;
    }
    const int ticked = choose_screen(screens, chosen).index;
    for (int i = 0; i < static_cast<int>(screens.size()); ++i) {
        const std::string item = screen_label(screens, i) + "###screen." + std::to_string(i);
        if (ImGui::MenuItem(item.c_str(), nullptr, i == ticked)) out.present_screen = screens[static_cast<size_t>(i)].name;
        note_item_for_tests("menu.view.screen." + std::to_string(i));
    }
    if (screens.empty()) ImGui::TextDisabled("%s", tr("menu.view.present_on.none"));
    if (kInBrowser) {  // where a second screen is picked: a page opens no speaker notes window there
        ImGui::Separator();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 24.0f);
        ImGui::TextDisabled("%s", tr("web.unavailable.notes_window"));
        ImGui::PopTextWrapPos();
    }
    ImGui::EndMenu();
}

// File: open input files, forget them, export, quit.
void file_menu_items(const Session& session, const Results& results, int step, const Jobs& jobs, Actions& out) {
    const io::ProblemSources& sources = session.sources;
    if (ImGui::MenuItem(label("menu.file.open_weights"))) open_dialog(jobs, Kind::OpenWeights, sources.weights_path, out);
    if (ImGui::MenuItem(label("menu.file.open_query"))) open_dialog(jobs, Kind::OpenQuery, sources.query_path, out);
    note_item_for_tests("menu.file.open_query");  // the browser's page test opens a query file here
    if (ImGui::MenuItem(label("menu.file.open_key"))) open_dialog(jobs, Kind::OpenKey, sources.key_path, out);
    if (ImGui::MenuItem(label("menu.file.open_value"))) open_dialog(jobs, Kind::OpenValue, sources.value_path, out);
    if (ImGui::MenuItem(label("menu.file.open_mask"))) open_dialog(jobs, Kind::OpenMask, sources.mask_path, out);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("menu.file.open_mask.tip"));
    if (ImGui::MenuItem(label("menu.file.forget"), nullptr, false,
                        !sources.weights_path.empty() || !sources.query_path.empty() || !sources.key_path.empty() ||
                            !sources.value_path.empty() || !sources.mask_path.empty())) {
        Session forgotten = session;
        drop_mask_file(forgotten, true);  // the mask file read when it was opened goes too
        forgotten.sources = io::ProblemSources{};
        forgotten.sources.tokens = sources.tokens;
        out.session_edit = std::move(forgotten);
        out.config_changed = true;
    }
    ImGui::Separator();
    const bool have = results.trace != nullptr;
    const Step* shown = results.step_at(step);
    const std::string step_file = shown ? snapshot_file_name(step + 1, shown->name()) : "";
    if (ImGui::MenuItem(label("menu.file.export_snapshot"), nullptr, false, have)) {
        open_dialog(jobs, Kind::ExportSnapshot, export_folder(jobs) + "/" + step_file, out);
    }
    if (ImGui::MenuItem(label("menu.file.export_all"), nullptr, false, have && !jobs.export_progress.active)) {
        open_dialog(jobs, Kind::ExportAll, export_folder(jobs) + "/attnviz_steps", out);
    }
    if (ImGui::MenuItem(label("menu.file.export_animation"), nullptr, false, have && !jobs.export_progress.active)) {
        open_dialog(jobs, Kind::ExportAnimation, export_folder(jobs) + "/" + with_extension(step_file, ".gif"), out);
    }
    note_item_for_tests("menu.file.export_animation");  // the browser's page test downloads a GIF from here
    if (ImGui::MenuItem(label("menu.file.export_tensors"), nullptr, false, have)) {
        open_dialog(jobs, Kind::ExportTensors, export_folder(jobs) + "/attnviz_tensors", out);
    }
    note_item_for_tests("menu.file.export_tensors");  // ... and downloads the trace from here
    if (ImGui::MenuItem(label("menu.file.export_csv"), nullptr, false, have)) {
        open_dialog(jobs, Kind::ExportCsv, export_folder(jobs) + "/" + with_extension(step_file, ".csv"), out);
    }
    if (ImGui::MenuItem(label("menu.file.export_torch"), nullptr, false, have))
        open_dialog(jobs, Kind::ExportTorch, export_folder(jobs) + "/attnviz_torch", out);
    if (ImGui::IsItemHovered()) {
        // Said before the dialog opens when the script could not reproduce this configuration.
        const Message refusal = have ? io::torch_export_refusal(*results.trace) : Message();
        ImGui::SetTooltip("%s", refusal.empty() ? tr("menu.file.export_torch.tip") : text::render(refusal).c_str());
    }
    ImGui::Separator();
    if (ImGui::MenuItem(label("menu.file.quit"), "Ctrl+Q")) out.quit = true;
}

// View: presentation, theme, colour scales, how weights are drawn, panels and language.
void view_menu_items(const Session& session, const Results& results, bool overview_open, const std::vector<ScreenInfo>& screens,
                     UiSettings& settings, bool& settings_edited, bool& show_storage, bool& show_code, Actions& out) {
    if (ImGui::MenuItem(label("menu.view.presentation"), "P")) out.toggle_presentation = true;
    if (ImGui::MenuItem(label("menu.view.full_screen"), "F")) out.toggle_fullscreen = true;
    present_on_screen_menu(screens, settings.present_screen, out);
    // Presenting (window/present_keys.h): the laser pointer and the pen.
    if (ImGui::MenuItem(label("pointer.menu"), "Shift+L")) out.toggle_pointer = true;
    if (ImGui::BeginMenu(label("pointer.colour.menu"))) {  // red on a red cell hides: another colour
        for (int i = 0; i < static_cast<int>(lesson::kPenColours.size()); ++i) {
            const std::string name = std::string("pen.colour.") + lesson::kPenColours[static_cast<size_t>(i)];
            if (ImGui::MenuItem(label(name.c_str()), nullptr, settings.laser_colour == i)) {
                settings.laser_colour = i;
                settings_edited = true;
            }
        }
        ImGui::EndMenu();
    }
    if (ImGui::MenuItem(label("pen.menu"), "D")) out.toggle_pen = true;
    if (ImGui::MenuItem(label("menu.view.light_theme"), nullptr, settings.light_theme)) {
        settings.light_theme = !settings.light_theme;
        settings_edited = true;
        out.theme_changed = true;
    }
    settings_edited |= ImGui::MenuItem(label("menu.view.numbers"), nullptr, &settings.show_values);
    ImGui::Separator();
    ImGui::TextDisabled("%s", tr("menu.view.colour_scale"));
    if (ImGui::MenuItem(label("menu.view.stretch"), nullptr, &settings.stretch_probabilities)) {
        settings_edited = true;
        out.config_changed = true;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("menu.view.stretch.tip"));
    if (ImGui::MenuItem(label("menu.view.one_scale"), nullptr, &settings.one_colour_scale)) {
        settings_edited = true;
        out.config_changed = true;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("menu.view.one_scale.tip"));
    // |x - x_fp32| per step: only when the configuration computes in bfloat16 or float16.
    const bool lowered = results.trace && results.trace->config.dtype != DType::Float32 && !results.trace->model.present();
    if (ImGui::MenuItem(label("menu.view.fp32_difference"), nullptr, &settings.difference_from_float32, lowered || settings.difference_from_float32)) {
        settings_edited = true;
        out.config_changed = true;
    }
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", tr("menu.view.fp32_difference.tip"));
    weights_as_menu(settings, settings_edited);
    // View > Overview: every layer and head of the weights at once (views/canvas/view_overview.h).
    if (ImGui::MenuItem(label("menu.view.overview"), "O", overview_open)) out.toggle_overview = true;
    note_item_for_tests("menu.view.overview");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("menu.view.overview.tip"));
    ImGui::Separator();
    // The cells painted on the canvas's score and weight steps (view_canvas_paint.h).
    if (ImGui::MenuItem(label("menu.view.clear_paint"), nullptr, false, session.painted_mask.any() && !session.model)) {
        Session cleared = session;
        cleared.painted_mask = PaintedMask{};
        out.session_edit = std::move(cleared);
        out.config_changed = true;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("menu.view.clear_paint.tip"));
    ImGui::MenuItem(label("menu.view.storage"), nullptr, &show_storage);
    ImGui::MenuItem(label("menu.view.code"), nullptr, &show_code);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("menu.view.code.tip"));
    language_menu(settings, settings_edited, out);
}

}  // namespace

Actions draw_menu(const Session& session, const Results& results, int step, const Jobs& jobs, const UiSettings& shown_settings,
                  bool& show_storage, bool& show_code, bool overview_open, const std::vector<ScreenInfo>& screens) {
    Actions out;
    if (!ImGui::BeginMainMenuBar()) return out;
    // The View menu edits a copy of the settings, handed back when an item changed it.
    UiSettings settings = shown_settings;
    bool settings_edited = false;
    if (ImGui::BeginMenu(label("menu.file"))) {
        file_menu_items(session, results, step, jobs, out);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(label("menu.model"))) {
        out |= draw_model_menu_items(session);
        ImGui::EndMenu();
    }
    if (ImGui::BeginMenu(label("menu.recipe"))) {
        out |= draw_recipe_menu_items(session);
        ImGui::EndMenu();
    }
    const bool view_menu_open = ImGui::BeginMenu(label("menu.view"));
    note_item_for_tests("menu.view");  // the overview's window test opens the menu here
    if (view_menu_open) {
        view_menu_items(session, results, overview_open, screens, settings, settings_edited, show_storage, show_code, out);
        ImGui::EndMenu();
    }
    // Lesson: making a lesson in the window (lesson_doc.h; carried out in window/lesson_edit.cpp).
    const bool lesson_menu = ImGui::BeginMenu(label("lesson.menu"));
    note_item_for_tests("lesson.menu");
    if (lesson_menu) {
        out |= draw_lesson_menu_items(jobs.lesson, results.trace != nullptr);
        ImGui::EndMenu();
    }
    const bool help_open = ImGui::BeginMenu(label("menu.help"));
    note_item_for_tests("menu.help");  // Help > Tour's window test clicks it
    if (help_open) {
        if (ImGui::MenuItem(label("menu.help.keyboard"))) open_dialog(jobs, Kind::Keys, "", out);
        note_item_for_tests("menu.help.keyboard");  // the browser's page test reads the N row
        // Help > Tour: a walk around the window (state/tour.h).
        if (ImGui::MenuItem(label("tour.menu"))) out.start_tour = true;
        note_item_for_tests("tour.menu");
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("tour.menu.tip"));
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
    if (settings_edited) out.settings_edit = std::move(settings);
    return out;
}

}  // namespace attn::gui
