#include "app/gui/views/panels/view_lesson_menu.h"

#include <imgui.h>

#include "app/gui/compute/in_browser.h"
#include "app/gui/kit/test_hook.h"
#include "app/text/languages.h"

namespace attn::gui {

Actions draw_lesson_menu_items(const LessonDoc& doc, bool have_trace) {
    using Op = LessonEdit::Op;
    using text::label;
    Actions out;
    auto item = [&](const char* key, Op op, const char* keys, bool enabled) {
        if (ImGui::MenuItem(label(key), keys, false, enabled)) out.lesson_edit = LessonEdit{op, doc.current, -1, ""};
        note_item_for_tests(key);  // the window test clicks it (test_hook.h)
    };
    const int count = static_cast<int>(doc.opened.slides.size());
    const bool on_slide = doc.open && doc.current >= 0 && doc.current < count;
    item("lesson.menu.new", Op::New, nullptr, true);
    item("lesson.menu.open", Op::Open, nullptr, true);
    item("lesson.menu.save", Op::Save, nullptr, doc.open);
    item("lesson.menu.save_as", Op::SaveAs, nullptr, doc.open);
    item("lesson.menu.present", Op::Present, nullptr, doc.open && count > 0);
    // Drawn from the file: a lesson with unsaved edits is saved first.
    item("lesson.menu.export_pictures", Op::ExportPictures, nullptr, doc.open && count > 0 && !doc.path.empty() && !doc.dirty);
    // In the browser the pictures are drawn in the page and downloaded; there is no handout.
    const char* pictures_tip = kInBrowser ? "lesson.menu.export_pictures.tip_web" : "lesson.menu.export_pictures.tip";
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", text::tr(pictures_tip));
    item("lesson.menu.export_handout", Op::ExportHandout, nullptr, doc.open && count > 0 && !doc.path.empty() && !doc.dirty);
    const char* handout_tip = kInBrowser ? "web.unavailable.handout" : "lesson.menu.export_handout.tip";
    if (ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) ImGui::SetTooltip("%s", text::tr(handout_tip));
    ImGui::Separator();
    item("lesson.menu.add", Op::Add, nullptr, doc.open && have_trace);
    item("lesson.menu.update", Op::Update, nullptr, on_slide && have_trace);
    item("lesson.menu.delete", Op::Delete, nullptr, on_slide);
    item("lesson.menu.move_up", Op::MoveUp, nullptr, on_slide && doc.current > 0);
    item("lesson.menu.move_down", Op::MoveDown, nullptr, on_slide && doc.current + 1 < count);
    ImGui::Separator();
    item("lesson.menu.undo", Op::Undo, "Ctrl+Z", doc.open && !doc.undo.empty());
    item("lesson.menu.redo", Op::Redo, "Ctrl+Shift+Z", doc.open && !doc.redo.empty());
    return out;
}

}  // namespace attn::gui
