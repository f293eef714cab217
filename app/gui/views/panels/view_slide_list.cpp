#include "app/gui/views/panels/view_slide_list.h"

#include <imgui.h>

#include "app/gui/kit/cjk_wrap.h"
#include <imgui_stdlib.h>

#include <algorithm>
#include <filesystem>

#include "app/gui/gl/gl_objects.h"
#include "app/gui/views/frame_context.h"  // SlidePictures, kThumbnailWidth
#include "app/gui/kit/fonts_theme.h"
#include "app/gui/kit/test_hook.h"
#include "app/gui/views/panels/note_editor.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

using Op = LessonEdit::Op;
constexpr const char* kSlidePayload = "ATTNVIZ_SLIDE";

// The lesson's own title and length (the presenter's countdown), edited in place.
void draw_lesson_fields(const LessonDoc& doc, Actions& out) {
    ImGui::PushID("lesson");
    std::string title = doc.opened.lesson.title;
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputTextWithHint("##lesson_title", text::tr("lesson.list.lesson_title"), &title))
        out.lesson_edit = LessonEdit{Op::LessonTitle, -1, -1, title};
    note_item_for_tests("lesson.list.lesson_title");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text::tr("lesson.list.lesson_title"));
    int minutes = doc.opened.lesson.minutes;
    ImGui::TextUnformatted(text::tr("lesson.list.minutes"));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text::tr("lesson.list.minutes.tip"));
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputInt("##minutes", &minutes, 5, 15))
        out.lesson_edit = LessonEdit{Op::LessonMinutes, std::clamp(minutes, 0, lesson::kMaxLessonMinutes), -1, ""};
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text::tr("lesson.list.minutes.tip"));
    ImGui::PopID();
}

// The file's name and an unsaved mark, or "not saved yet".
void draw_header(const LessonDoc& doc, const ThemeColors& colors) {
    const std::string name = doc.path.empty() ? text::tr("lesson.list.unsaved_file")
                                              : std::filesystem::path(doc.path).filename().string();
    ImGui::TextUnformatted((name + (doc.dirty ? " *" : "")).c_str());
    if (doc.dirty && ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text::tr("lesson.list.dirty_tip"));
    if (!doc.error.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(colors.error));
        text_wrapped(text::render(doc.error).c_str());
        ImGui::PopStyleColor();
    }
    if (doc.opened.slides.empty()) text_wrapped(text::tr("lesson.list.empty"));
}

// One slide's row: its number, thumbnail and title, a click target, a drag source and a
// drop target (a slide dropped here takes this place).
void draw_row(const LessonDoc& doc, int index, const SlidePictures* thumbnails, Actions& out) {
    const lesson::Slide& slide = doc.opened.slides[static_cast<size_t>(index)].slide;
    const float width = ImGui::GetContentRegionAvail().x;
    const float picture_w = width * 0.9f, picture_h = picture_w * kThumbnailHeight / kThumbnailWidth;
    ImGui::PushID(index);
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float line = ImGui::GetTextLineHeightWithSpacing();
    if (ImGui::Selectable("##slide", index == doc.current, 0, ImVec2(width, picture_h + line * 1.2f)))
        out.lesson_edit = LessonEdit{Op::Go, index, -1, ""};
    note_item_for_tests("lesson.slide." + std::to_string(index));
    if (ImGui::BeginDragDropSource()) {
        ImGui::SetDragDropPayload(kSlidePayload, &index, sizeof index);
        ImGui::Text("%d  %s", index + 1, slide.title.c_str());
        ImGui::EndDragDropSource();
    }
    if (ImGui::BeginDragDropTarget()) {
        if (const ImGuiPayload* payload = ImGui::AcceptDragDropPayload(kSlidePayload)) {
            const int from = *static_cast<const int*>(payload->Data);
            out.lesson_edit = LessonEdit{Op::Move, from, index, ""};
        }
        ImGui::EndDragDropTarget();
    }
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const std::string caption = std::to_string(index + 1) + "  " + slide.title;
    draw->AddText(ImVec2(at.x + 2, at.y), ImGui::GetColorU32(ImGuiCol_Text), caption.c_str());
    const ImVec2 p0(at.x + (width - picture_w) * 0.5f, at.y + line);
    const ImVec2 p1(p0.x + picture_w, p0.y + picture_h);
    if (const gl::Texture* picture = thumbnails ? thumbnails->find(slide) : nullptr; picture && picture->valid())
        draw->AddImage(picture->imgui_id(), p0, p1);
    else
        draw->AddRect(p0, p1, ImGui::GetColorU32(ImGuiCol_Border));
    ImGui::PopID();
}

// The current slide's title and speaker note, edited in place.
void draw_current_fields(const LessonDoc& doc, Actions& out) {
    const int index = doc.current;
    const lesson::Slide& slide = doc.opened.slides[static_cast<size_t>(index)].slide;
    ImGui::PushID("current");
    ImGui::TextUnformatted(text::tr("lesson.list.title"));
    std::string title = slide.title;
    ImGui::SetNextItemWidth(-1);
    if (ImGui::InputText("##title", &title)) out.lesson_edit = LessonEdit{Op::Title, index, -1, title};
    note_item_for_tests("lesson.list.title");
    ImGui::TextUnformatted(text::tr("lesson.list.note"));
    std::string note = slide.note;
    if (wrapped_text_field("##note", note, ImGui::GetTextLineHeight() * 6)) out.lesson_edit = LessonEdit{Op::Note, index, -1, note};
    note_item_for_tests("lesson.list.note");
    ImGui::PopID();
}

}  // namespace

Actions draw_slide_list(const LessonDoc& doc, const SlidePictures* thumbnails, bool light_theme) {
    Actions out;
    draw_header(doc, theme_colors(light_theme));
    draw_lesson_fields(doc, out);
    const int count = static_cast<int>(doc.opened.slides.size());
    if (doc.current >= 0 && doc.current < count) {
        draw_current_fields(doc, out);
        ImGui::Separator();
    }
    ImGui::BeginChild("##slides");
    for (int i = 0; i < count; ++i) draw_row(doc, i, thumbnails, out);
    ImGui::EndChild();
    return out;
}

}  // namespace attn::gui
