#include "app/gui/views/panels/view_slide_grid.h"

#include <imgui.h>

#include <algorithm>

#include "app/gui/views/frame_context.h"  // SlidePictures, kThumbnailWidth
#include "app/gui/views/view_registry.h"
#include "app/gui/kit/test_hook.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

// One slide's cell: its picture (or a frame while it is not drawn), "3  <title>" under it,
// a thick frame when it is the chosen one. Returns true when it was clicked.
bool grid_cell(const lesson::Slide& slide, int index, const gl::Texture* picture, ImVec2 at, ImVec2 picture_size, bool chosen) {
    ImDrawList* draw = ImGui::GetWindowDrawList();
    const float line = ImGui::GetTextLineHeightWithSpacing();
    ImGui::SetCursorScreenPos(at);
    ImGui::PushID(index);
    const bool clicked = ImGui::InvisibleButton("##cell", ImVec2(picture_size.x, picture_size.y + line));
    note_item_for_tests("grid.slide." + std::to_string(index));
    ImGui::PopID();
    const ImVec2 end(at.x + picture_size.x, at.y + picture_size.y);
    if (picture && picture->valid()) draw->AddImage(picture->imgui_id(), at, end);
    else draw->AddRectFilled(at, end, ImGui::GetColorU32(ImGuiCol_FrameBg));
    const ImU32 frame = chosen ? IM_COL32(255, 200, 40, 255) : ImGui::GetColorU32(ImGuiCol_Border);
    const float thick = chosen ? std::max(3.0f, ImGui::GetFontSize() * 0.25f) : 1.0f;
    draw->AddRect(ImVec2(at.x - thick * 0.5f, at.y - thick * 0.5f), ImVec2(end.x + thick * 0.5f, end.y + thick * 0.5f), frame, 0.0f, 0, thick);
    const std::string caption = std::to_string(index + 1) + "  " + slide.title;
    draw->PushClipRect(ImVec2(at.x, end.y), ImVec2(end.x, end.y + line), true);
    draw->AddText(ImVec2(at.x, end.y + 2.0f), ImGui::GetColorU32(ImGuiCol_Text), caption.c_str());
    draw->PopClipRect();
    return clicked;
}

}  // namespace

Actions draw_slide_grid(const LessonDoc& doc, const SlidePictures* thumbnails, UiState& ui) {
    Actions out;
    PresentUi& present = ui.present;
    const int count = static_cast<int>(doc.opened.slides.size());
    if (!present.grid || count == 0) return out;
    const ImVec2 screen = ImGui::GetIO().DisplaySize;
    const float fs = ImGui::GetFontSize(), line = ImGui::GetTextLineHeightWithSpacing(), gap = fs;
    ImGui::SetNextWindowPos(ImVec2(0, 0));
    ImGui::SetNextWindowSize(screen);
    ImGui::SetNextWindowBgAlpha(1.0f);
    ImGui::Begin("##slide_grid", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    ImGui::TextUnformatted(text::tr("present.grid.title"));
    // Pictures as large as the screen allows, up to twice the size they are drawn at.
    const SlideGridPlace place = slide_grid_place(count, screen.x, screen.y, ImGui::GetCursorScreenPos().y + gap * 0.5f, gap, line,
                                                  static_cast<float>(kThumbnailWidth) / static_cast<float>(kThumbnailHeight),
                                                  2.0f * static_cast<float>(kThumbnailWidth));
    const int columns = place.columns;
    const float w = place.cell_w, h = place.cell_h, left = place.left, top = place.top;
    for (int i = 0; i < count; ++i) {
        const lesson::Slide& slide = doc.opened.slides[static_cast<size_t>(i)].slide;
        const ImVec2 at(left + static_cast<float>(i % columns) * (w + gap), top + static_cast<float>(i / columns) * (h + line + gap));
        if (grid_cell(slide, i, thumbnails ? thumbnails->find(slide) : nullptr, at, ImVec2(w, h), i == present.grid_choice)) {
            out.go_to_slide = i;
            present.grid = false;
        }
    }
    ImGui::End();
    return out;
}

}  // namespace attn::gui
