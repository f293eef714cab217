#include "app/gui/views/dialogs/view_dialogs.h"

#include <imgui.h>

#include <algorithm>

#include "app/gui/compute/in_browser.h"
#include "app/gui/kit/cjk_wrap.h"
#include "app/gui/kit/shortcuts.h"
#include "app/gui/kit/test_hook.h"
#include "app/gui/views/dialogs/view_path_dialog.h"
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
        case Kind::OpenMask: return label("dialog.open_mask");
        case Kind::ExportSnapshot: return label("dialog.export_snapshot");
        case Kind::ExportAll: return label("dialog.export_all");
        case Kind::ExportTensors: return label("dialog.export_tensors");
        case Kind::ExportTorch: return label("dialog.export_torch");
        case Kind::ExportCsv: return label("dialog.export_csv");
        case Kind::ExportAnimation: return label("dialog.export_animation");
        case Kind::Keys: return label("dialog.keys");
        case Kind::OpenLesson: return label("lesson.dialog.open");
        case Kind::SaveLesson: return label("lesson.dialog.save");
        case Kind::LessonUnsaved: return label("lesson.dialog.unsaved");
        case Kind::None: break;
    }
    return "";
}

// "The lesson has unsaved changes": Save, Discard or Cancel (Escape), handed back as the
// lesson edit that answers the question waiting in the lesson (LessonDoc::pending).
void draw_unsaved_lesson_question(DialogState& d, Actions& out, bool open) {
    ImGui::TextUnformatted(tr("lesson.dialog.unsaved.question"));
    using Op = LessonEdit::Op;
    std::optional<Op> answer;
    if (ImGui::Button(label("lesson.dialog.unsaved.save"))) answer = Op::SaveThenContinue;
    note_item_for_tests("lesson.dialog.unsaved.save");
    ImGui::SameLine();
    if (ImGui::Button(label("lesson.dialog.unsaved.discard"))) answer = Op::Discard;
    note_item_for_tests("lesson.dialog.unsaved.discard");
    ImGui::SameLine();
    const bool escape = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
    if (ImGui::Button(label("lesson.dialog.unsaved.cancel")) || escape || !open) answer = Op::Cancel;
    note_item_for_tests("lesson.dialog.unsaved.cancel");
    if (!answer) return;
    out.lesson_edit = LessonEdit{*answer, -1, -1, ""};
    d.kind = Kind::None;
    ImGui::CloseCurrentPopup();
}

// The open dialog, drawn on `d` (the view's copy).
void draw_open_dialog(DialogState& d, const Session& session, bool light_theme, Actions& out) {
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
        return;
    }
    if (d.close) {
        d.close = false;
        d.kind = Kind::None;
        ImGui::CloseCurrentPopup();
        ImGui::EndPopup();
        return;
    }
    if (d.kind == Kind::Keys) {
        // Two real columns, so keys and actions line up in any font; the table is as wide as
        // the screen allows (a 1024 px projector) and a long action wraps in its column.
        const float fs = ImGui::GetFontSize();
        const float table_w = std::min(ImGui::GetMainViewport()->WorkSize.x - fs * 3.0f, fs * 46.0f);
        if (ImGui::BeginTable("##keys", 2, ImGuiTableFlags_RowBg | ImGuiTableFlags_BordersInnerV, ImVec2(table_w, 0.0f))) {
            ImGui::TableSetupColumn(label("dialog.keys.key"), ImGuiTableColumnFlags_WidthStretch, 0.34f);
            ImGui::TableSetupColumn(label("dialog.keys.does"), ImGuiTableColumnFlags_WidthStretch, 0.66f);
            ImGui::TableHeadersRow();
            for (const Shortcut& shortcut : kShortcuts) {
                ImGui::TableNextRow();
                ImGui::TableNextColumn();
                const std::string key = std::string("shortcut.") + shortcut.id;
                text_wrapped(tr(key + ".keys"));
                ImGui::TableNextColumn();
                text_wrapped(tr(shortcut_action_key(shortcut, kInBrowser)));

            }
            ImGui::EndTable();
        }
        const bool escape = ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
        if (ImGui::Button(label("dialog.close")) || escape || !open) {
            d.kind = Kind::None;
            ImGui::CloseCurrentPopup();
        }
        ImGui::EndPopup();
        return;
    }
    if (d.kind == Kind::LessonUnsaved) {
        draw_unsaved_lesson_question(d, out, open);
        ImGui::EndPopup();
        return;
    }
    draw_path_dialog(d, session, light_theme, out, open);
    ImGui::EndPopup();
}

}  // namespace

Actions draw_dialogs(const DialogState& dialog, const Session& session, bool light_theme) {
    Actions out;
    if (dialog.kind == Kind::None) return out;
    // An open dialog changes nearly every frame (its popup opens, its path field types,
    // its listing follows), so its copy is handed back whenever it is open. The path
    // field's text lives in ImGui's edit buffer while it is typed into, not in the copy.
    DialogState d = dialog;
    draw_open_dialog(d, session, light_theme, out);
    out.dialog_edit = std::move(d);
    return out;
}

}  // namespace attn::gui
