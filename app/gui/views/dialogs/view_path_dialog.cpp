// The body of the open and export dialogs: a typed path (keyboard first), the listing
// of the folder it points into, what pressing Export would do, and the two questions
// ("replace X?", "create folder X?") asked before anything is overwritten or created.
#include <imgui.h>

#include "app/gui/kit/cjk_wrap.h"

#include "app/gui/views/controls/view_controls_widgets.h"
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>

#include "app/gui/state/export_path.h"
#include "app/media/animation_writer.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/gui/kit/test_hook.h"
#include "app/gui/kit/upload.h"
#include "app/gui/views/dialogs/view_file_chooser.h"
#include "app/gui/views/dialogs/view_path_dialog.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

using Kind = DialogState::Kind;
namespace fs = std::filesystem;

bool is_open_kind(Kind kind) {
    return kind == Kind::OpenWeights || kind == Kind::OpenQuery || kind == Kind::OpenKey || kind == Kind::OpenValue ||
           kind == Kind::OpenMask || kind == Kind::OpenLesson;
}

ExportTarget target_of(Kind kind) {
    return kind == Kind::ExportAll || kind == Kind::ExportTensors || kind == Kind::ExportTorch ? ExportTarget::Folder : ExportTarget::File;
}

// The file type a dialog reads or writes, also the listing's filter.
const char* extension_of(const DialogState& d) {
    switch (d.kind) {
        case Kind::OpenWeights: return ".safetensors";
        case Kind::OpenQuery:
        case Kind::OpenKey:
        case Kind::OpenValue:
        case Kind::OpenMask:
        case Kind::ExportTensors: return ".npy";
        case Kind::ExportTorch: return ".py";
        case Kind::ExportSnapshot:
        case Kind::ExportAll: return ".png";
        case Kind::ExportCsv: return ".csv";
        case Kind::ExportAnimation: return d.animation_mp4 ? ".mp4" : ".gif";
        case Kind::OpenLesson:
        case Kind::SaveLesson: return ".json";
        case Kind::LessonUnsaved:
        case Kind::Keys:
        case Kind::None: break;
    }
    return "";
}

// The path an export would write for the typed text: absolute, with the file type added
// when the name has none.
std::string export_path_of(const DialogState& d) {
    const std::string resolved = resolve_export_path(d.path, d.base);
    return target_of(d.kind) == ExportTarget::File ? with_default_extension(resolved, extension_of(d)) : resolved;
}

PathCheck check_dialog_path(const DialogState& d) {
    const std::string path = export_path_of(d);
    if (target_of(d.kind) == ExportTarget::File && !path.empty() && fs::path(path).extension() != extension_of(d)) {
        PathCheck c;
        c.resolved = path;
        c.message = Message("dialog.path.wrong_extension", {{"extension", extension_of(d)}});
        return c;
    }
    return check_export_path(path, "/", target_of(d.kind));
}

ExportRequest make_request(const DialogState& d, const std::string& path, bool replace, const std::string& create_folder) {
    ExportRequest r;
    r.path = path;
    r.scale = d.scale_index == 2 ? 4 : (d.scale_index == 1 ? 2 : 1);
    r.canvas_only = d.canvas_only;
    r.replace = replace;
    r.create_folder = create_folder;
    r.mp4 = d.animation_mp4;
    r.all_steps = d.animation_all_steps;
    r.kind = d.kind == Kind::ExportSnapshot ? ExportKind::SnapshotPng
             : d.kind == Kind::ExportAll    ? ExportKind::AllStepsPng
             : d.kind == Kind::ExportCsv    ? ExportKind::StepCsv
             : d.kind == Kind::ExportTorch  ? ExportKind::TorchDir
             : d.kind == Kind::ExportAnimation ? ExportKind::Animation
                                            : ExportKind::TensorsDir;
    return r;
}

// Export (or save the lesson) to `path`, once the path is checked and any question answered.
void submit_write(const DialogState& d, const std::string& path, bool replace, const std::string& create_folder, Actions& out) {
    if (d.kind == Kind::SaveLesson) {
        // The window saves it (window/lesson_edit.cpp) and closes the dialog when that worked.
        out.lesson_edit = LessonEdit{LessonEdit::Op::SaveAs, -1, -1, path};
        return;
    }
    out.export_request = make_request(d, path, replace, create_folder);
}

void close_dialog(DialogState& d) {
    d.kind = Kind::None;
    d.question.clear();
    ImGui::CloseCurrentPopup();
}

// The file name part of the field, kept when the user browses to another folder.
std::string name_part(const DialogState& d) {
    const std::string resolved = resolve_export_path(d.path, d.base);
    return resolved.empty() ? std::string() : fs::path(resolved).filename().string();
}

void colored_wrapped(Rgb color, const std::string& text, float width) {
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(color));
    ImGui::PushTextWrapPos(ImGui::GetCursorPosX() + width);
    text_wrapped(text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

// The typed name's .gif / .mp4 follows the format picked (a remembered MP4 choice too).
void follow_animation_format(DialogState& d) {
    const std::string wanted = extension_of(d);
    const std::string other = d.animation_mp4 ? ".gif" : ".mp4";
    if (d.path.size() >= other.size() && d.path.compare(d.path.size() - other.size(), other.size(), other) == 0)
        d.path = d.path.substr(0, d.path.size() - other.size()) + wanted;
    d.chooser.set_extensions({wanted});
}

}  // namespace

void follow_animation_steps(DialogState& d, bool all) {
    d.animation_all_steps = all;
    fs::path p(d.path);
    if (all) {
        d.animation_step_file = p.filename().string();
        p.replace_filename(std::string(kAllStepsAnimationName) + extension_of(d));
    } else if (!d.animation_step_file.empty()) {
        p.replace_filename(fs::path(d.animation_step_file).replace_extension(extension_of(d)));
    }
    d.path = p.string();
    d.question.clear();
}

namespace {

// Format, steps, resolution and area of File > Export animation. MP4 needs ffmpeg: without
// it (always in the browser) the choice is disabled and says why (what to install).
void draw_animation_options(DialogState& d, float width, Rgb dim) {
    ImGui::TextUnformatted(text::tr("dialog.path.format"));
    ImGui::SameLine();
    const bool have_ffmpeg = !media::find_ffmpeg().empty();
    if (!have_ffmpeg && d.animation_mp4) {
        d.animation_mp4 = false;
        follow_animation_format(d);
    }
    int format = d.animation_mp4 ? 1 : 0;
    bool changed = ImGui::RadioButton("GIF", &format, 0);
    ImGui::SameLine();
    ImGui::BeginDisabled(!have_ffmpeg);
    changed |= ImGui::RadioButton("MP4 (H.264)", &format, 1);
    ImGui::EndDisabled();
    if (changed) {
        d.animation_mp4 = format == 1;
        follow_animation_format(d);
        d.chooser.refresh();
        d.question.clear();
    }
    if (!have_ffmpeg) colored_wrapped(dim, text::render(media::mp4_unavailable()), width);
    ImGui::TextUnformatted(text::tr("dialog.path.steps"));
    ImGui::SameLine();
    int all = d.animation_all_steps ? 1 : 0;
    bool steps_changed = ImGui::RadioButton(text::label("dialog.path.this_step"), &all, 0);
    ImGui::SameLine();
    steps_changed |= ImGui::RadioButton(text::label("dialog.path.all_steps"), &all, 1);
    if (steps_changed && d.animation_all_steps != (all == 1)) follow_animation_steps(d, all == 1);
    ImGui::TextUnformatted(text::tr("dialog.path.resolution"));
    ImGui::SameLine();
    if (d.scale_index > 1) d.scale_index = 1;  // 4x is for still pictures
    ImGui::RadioButton("1x", &d.scale_index, 0);
    ImGui::SameLine();
    ImGui::RadioButton("2x", &d.scale_index, 1);
    ImGui::Checkbox(text::label("dialog.path.canvas_only"), &d.canvas_only);
}

// Open: the typed file goes into the session (a mask is read and checked now, session.h,
// so a file that does not fit is refused here even while painted cells would hide it);
// a refusal stays in the open dialog.
void submit_open(DialogState& d, const Session& session, Actions& out) {
    const std::string path = resolve_export_path(d.path, d.base);
    std::error_code ec;
    if (!fs::is_regular_file(path, ec)) {
        d.error = Message("dialog.path.no_file", {{"path", path}});
        return;
    }
    if (d.kind == Kind::OpenLesson) {
        out.lesson_edit = LessonEdit{LessonEdit::Op::Open, -1, -1, path};
    } else if (d.kind == Kind::OpenMask) {
        Session opened = session;
        d.error = open_mask_file(opened, path);
        if (!d.error.empty()) return;
        out.session_edit = std::move(opened);
        out.config_changed = true;
    } else {
        io::ProblemSources sources = session.sources;
        std::string* slot = d.kind == Kind::OpenWeights ? &sources.weights_path
                            : d.kind == Kind::OpenQuery ? &sources.query_path
                            : d.kind == Kind::OpenKey   ? &sources.key_path
                                                        : &sources.value_path;
        *slot = path;
        out.sources_edit = std::move(sources);
        out.config_changed = true;
    }
    close_dialog(d);
}

// A line that says what Export would do with the path typed, before it is pressed.
PathCheck draw_path_verdict(const DialogState& d, const ThemeColors& colors, bool folder, float width) {
    const PathCheck check = check_dialog_path(d);
    // A line that says what Export would do; a refusal or question shown below is not repeated.
    const std::string name = fs::path(check.resolved).filename().string();
    switch (check.verdict) {
        case PathVerdict::Ready: colored_wrapped(colors.dim, text::trf("dialog.path.writes", {{"path", check.resolved}}), width); break;
        case PathVerdict::AskOverwrite:
            colored_wrapped(colors.warning, text::trf(folder ? "dialog.path.folder_not_empty" : "dialog.path.file_exists", {{"name", name}}), width);
            break;
        case PathVerdict::AskCreateFolder:
            colored_wrapped(colors.warning,
                            text::trf("dialog.path.folder_missing", {{"name", fs::path(check.missing_folder).filename().string()}}), width);
            break;
        case PathVerdict::Refused:
            if (!d.path.empty() && d.error != check.message) colored_wrapped(colors.error, text::render(check.message), width);
            break;
    }
    return check;
}

// The file chooser under the path: browsing changes the folder, picking a file the path;
// true when a file was chosen (double-click), which submits.
bool draw_chooser(DialogState& d, bool opening, bool folder, float width) {
    bool submit = false;
    std::string picked;
    const ChooserAction action = draw_file_chooser(d.chooser, width, ImGui::GetFontSize() * 11.0f, picked);
    if (action == ChooserAction::FolderChanged) {
        // Browsing changes where; the name typed stays (an open dialog has no name yet).
        d.path = opening ? d.chooser.folder() + "/" : (fs::path(d.chooser.folder()) / name_part(d)).string();
        d.question.clear();
        d.error.clear();
    } else if (action == ChooserAction::FilePicked || action == ChooserAction::FileChosen) {
        d.path = folder ? picked.substr(0, picked.rfind('/')) : picked;
        d.question.clear();
        d.error.clear();
        submit |= action == ChooserAction::FileChosen;
    }
    if (folder && ImGui::Button(text::label("dialog.path.use_shown_folder"))) {
        d.path = d.chooser.folder();
        d.question.clear();
    }
    return submit;
}

// Overwrite or create a folder? Asked inside the dialog; nothing is written until yes.
void draw_question(DialogState& d, const ThemeColors& colors, float width, bool enter, bool escape, Actions& out) {
    ImGui::Separator();
    colored_wrapped(colors.warning, text::render(d.question), width);
    const bool yes = ImGui::Button(text::label(d.create_folder.empty() ? "dialog.path.replace" : "dialog.path.create_and_export")) || enter;
    ImGui::SameLine();
    const bool back = ImGui::Button(text::label("dialog.path.back")) || escape;
    ImGui::SameLine();
    ImGui::TextDisabled("%s", text::tr("dialog.path.enter_escape"));
    if (yes) {
        submit_write(d, d.question_path, d.create_folder.empty(), d.create_folder, out);
        d.question.clear();
    } else if (back) {
        d.question.clear();
        d.refocus = true;
    }
}

}  // namespace

void open_path_dialog(DialogState& d, Kind kind, std::string path) {
    d.kind = kind;
    d.just_opened = true;
    d.error.clear();
    d.question.clear();
    d.base = export_base_folder();
    d.path = std::move(path);
    if (kind == Kind::Keys || kind == Kind::None) return;
    if (kind == Kind::ExportAnimation) follow_animation_format(d);
    d.chooser.set_extensions({extension_of(d)});
    const std::string resolved = resolve_export_path(d.path, d.base);
    // A folder typed ("/some/dir/") is the folder listed, whatever the dialog asks for.
    if (resolved.empty() || !d.chooser.follow(resolved, true)) {
        // follow() keeps the listing when the folder is the same one: re-list it anyway.
        if (d.chooser.folder().empty() || resolved.empty()) d.chooser.open(d.base);
        else d.chooser.refresh();
    }
}

// The browser: files from the user's computer, copied into the folder listed (upload.h).
static void draw_upload_button(const DialogState& d) {
    if (!can_upload()) return;
    if (ImGui::Button(text::label("dialog.path.upload"))) upload_into(d.chooser.folder());
    note_item_for_tests("upload");
}

void draw_path_dialog(DialogState& d, const Session& session, bool light_theme, Actions& out, bool open) {
    const ThemeColors colors = theme_colors(light_theme);
    const float fs = ImGui::GetFontSize();
    const float width = std::min(fs * 40.0f, ImGui::GetMainViewport()->Size.x * 0.85f);
    const bool opening = is_open_kind(d.kind);
    const bool folder = !opening && target_of(d.kind) == ExportTarget::Folder;
    const bool asking = !d.question.empty();

    ImGui::TextUnformatted(text::tr(opening ? "dialog.path.open" : (folder ? "dialog.path.folder" : "dialog.path.file")));
    ImGui::SetNextItemWidth(width);
    if (!asking && (ImGui::IsWindowAppearing() || d.refocus)) {
        ImGui::SetKeyboardFocusHere();
        d.refocus = false;
    }
    bool submit = ImGui::InputText("##path", &d.path, ImGuiInputTextFlags_EnterReturnsTrue);
    if (ImGui::IsItemEdited()) {
        d.question.clear();
        d.error.clear();
        d.chooser.follow(resolve_export_path(d.path, d.base), true);  // a typed folder is listed itself
    }
    quiet_note(text::trf("dialog.path.relative", {{"folder", d.base}}));

    // What Export would do, before it is pressed.
    const PathCheck check = opening ? PathCheck{} : draw_path_verdict(d, colors, folder, width);

    submit |= draw_chooser(d, opening, folder, width);
    if (opening) draw_upload_button(d);

    if (d.kind == Kind::ExportSnapshot || d.kind == Kind::ExportAll) {
        ImGui::TextUnformatted(text::tr("dialog.path.resolution"));
        ImGui::SameLine();
        ImGui::RadioButton("1x", &d.scale_index, 0);
        ImGui::SameLine();
        ImGui::RadioButton("2x", &d.scale_index, 1);
        ImGui::SameLine();
        ImGui::RadioButton("4x", &d.scale_index, 2);
        ImGui::Checkbox(text::label("dialog.path.canvas_only"), &d.canvas_only);
    }
    if (d.kind == Kind::ExportAnimation) draw_animation_options(d, width, colors.dim);
    if (!d.error.empty()) colored_wrapped(colors.error, text::render(d.error), width);

    const bool enter = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Enter)) && !ImGui::IsAnyItemActive();
    const bool escape = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape)) && !ImGui::IsAnyItemActive();
    if (asking) {
        draw_question(d, colors, width, enter, escape, out);
        if (!open) close_dialog(d);
        return;
    }

    // Enter exports from anywhere in the dialog (after ticking "canvas only", say), not
    // only from the path field.
    const char* button = opening ? "dialog.path.open_button" : (d.kind == Kind::SaveLesson ? "lesson.dialog.save_button" : "dialog.path.export_button");
    submit |= ImGui::Button(text::label(button), ImVec2(fs * 6.0f, 0)) || enter;
    ImGui::SameLine();
    const bool cancel = ImGui::Button(text::label("dialog.path.cancel")) || !open || (escape && !submit);
    if (submit) {
        d.refocus = true;
        d.error.clear();
        if (opening) {
            submit_open(d, session, out);
            return;
        }
        switch (check.verdict) {
            case PathVerdict::Refused: d.error = check.message; break;
            case PathVerdict::Ready: submit_write(d, check.resolved, false, "", out); break;
            case PathVerdict::AskOverwrite:
            case PathVerdict::AskCreateFolder:
                // Asked inside the dialog; nothing is written until the answer is yes.
                d.question = check.message;
                d.question_path = check.resolved;
                d.create_folder = check.missing_folder;
                break;
        }
        // The dialog stays open until the window loop reports success (it sets d.close).
    } else if (cancel) {
        close_dialog(d);
    }
}

}  // namespace attn::gui
