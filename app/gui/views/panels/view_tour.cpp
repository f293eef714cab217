#include "app/gui/views/panels/view_tour.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <string>
#include <vector>

#include "app/gui/display/tour_bubble.h"
#include "app/gui/views/view_registry.h"
#include "app/gui/kit/cjk_wrap.h"
#include "app/gui/kit/test_hook.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

using text::label;
using text::tr;
using text::trf;

// The outline's colour: bright on both themes, drawn over a dark edge.
constexpr ImU32 kOutline = IM_COL32(255, 200, 40, 255);

std::string rect_text(const Rect& r) {
    return std::to_string(static_cast<int>(r.x)) + " " + std::to_string(static_cast<int>(r.y)) + " " +
           std::to_string(static_cast<int>(r.w)) + " " + std::to_string(static_cast<int>(r.h));
}

// The rectangles of the elements the slide names that were drawn this frame, outlined.
std::vector<Rect> outline_elements(const lesson::SlideView& marks, const ElementRects& elements) {
    std::vector<Rect> shown;
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    const float t = std::max(3.0f, ImGui::GetFontSize() * 0.2f);
    for (const std::string& id : marks.elements) {
        const std::optional<Rect> r = elements.find(id);
        if (!r) continue;
        shown.push_back(*r);
        note_for_tests("tour_highlight " + id + " " + rect_text(*r));
        // Inside the element's own edge, so an element at the window's border stays outlined.
        const ImVec2 a(r->x + t * 0.5f, r->y + t * 0.5f), b(r->right() - t * 0.5f, r->bottom() - t * 0.5f);
        dl->AddRect(a, b, IM_COL32(0, 0, 0, 200), t, 0, t + 2.0f);
        dl->AddRect(a, b, kOutline, t, 0, t);
    }
    return shown;
}

// The bubble's height at `width`: its title, its text, and the line of buttons.
float bubble_height(const TourState& tour, float width) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float wrap = width - style.WindowPadding.x * 2.0f;
    // Wrapped as text_wrapped wraps them (between Chinese characters too).
    const auto wrapped_h = [&](const std::string& words) {
        return ImGui::CalcTextSize(wrap_cjk(*ImGui::GetFont(), ImGui::GetFontSize(), words, wrap).c_str()).y;
    };
    const float title_h = wrapped_h(tour.title), text_h = wrapped_h(tour.text);
    return style.WindowPadding.y * 2.0f + title_h + text_h + style.ItemSpacing.y * 3.0f + ImGui::GetFrameHeight();
}

// Back, the slide's number, Next and Close; what was pressed comes back in `out`.
void bubble_buttons(const TourState& tour, Actions& out) {
    ImGui::BeginDisabled(tour.index <= 0);
    if (ImGui::Button(label("tour.back"))) out.tour_slide = tour.index - 1;
    ImGui::EndDisabled();
    ImGui::SameLine();
    ImGui::TextDisabled("%s", trf("tour.counter", {{"number", tour.index + 1}, {"count", tour.count}}).c_str());
    ImGui::SameLine();
    ImGui::BeginDisabled(tour.index + 1 >= tour.count);
    if (ImGui::Button(label("tour.next"))) out.tour_slide = tour.index + 1;
    note_item_for_tests("tour.next");
    ImGui::EndDisabled();
    ImGui::SameLine();
    if (ImGui::Button(label("tour.close"))) out.close_tour = true;
    note_item_for_tests("tour.close");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("tour.keys"));
}

}  // namespace

Actions draw_tour_overlay(const TourState& tour, const lesson::SlideView& marks, const ElementRects& elements,
                          const Rect& screen, bool interactive) {
    Actions out;
    const std::vector<Rect> shown = outline_elements(marks, elements);
    if (tour.title.empty() && tour.text.empty()) return out;
    const float fs = ImGui::GetFontSize();
    const Rect target = shown.empty() ? Rect{screen.x + screen.w * 0.5f, screen.y + screen.h * 0.5f, 0, 0} : bounding_rect(shown);
    const Rect at = place_bubble(screen, target, fs * 0.6f, {fs * 24.0f, fs * 18.0f, fs * 14.0f, fs * 11.0f},
                                 [&](float w) { return bubble_height(tour, w); });
    note_for_tests("tour_bubble " + rect_text(at));
    place_window(at.x, at.y, at.w, at.h);
    // Opaque, framed in the outline's colour: the words must not mix with the panel under them.
    ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_PopupBg];
    bg.w = 1.0f;
    ImGui::PushStyleColor(ImGuiCol_WindowBg, bg);
    ImGui::PushStyleColor(ImGuiCol_Border, kOutline);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowBorderSize, 2.0f);
    ImGui::Begin("##tour_bubble", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    ImGui::PopStyleVar();
    ImGui::PopStyleColor(2);
    // Over the panels, whichever was clicked last; under an open menu or dialog.
    if (!ImGui::IsPopupOpen(nullptr, ImGuiPopupFlags_AnyPopupId | ImGuiPopupFlags_AnyPopupLevel))
        ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());
    ImGui::PushTextWrapPos(0.0f);
    ImGui::PushStyleColor(ImGuiCol_Text, kOutline);
    text_wrapped(tour.title.c_str());
    ImGui::PopStyleColor();
    text_wrapped(tour.text.c_str());
    ImGui::PopTextWrapPos();
    ImGui::Spacing();
    if (interactive && tour.running()) bubble_buttons(tour, out);
    else if (tour.count > 0) ImGui::TextDisabled("%s", trf("tour.counter", {{"number", tour.index + 1}, {"count", tour.count}}).c_str());
    ImGui::End();
    return out;
}

void record_slot_element(ElementRects& elements, DockSlot slot, const Rect& area) {
    switch (slot) {
        case DockSlot::MenuBar: elements.record("menu", Rect{0, 0, ImGui::GetIO().DisplaySize.x, ImGui::GetFrameHeight()}); return;
        case DockSlot::Center: elements.record("canvas", area); return;
        case DockSlot::BesideCanvas: elements.record("code", area); return;
        case DockSlot::Left: elements.record("controls", area); return;
        case DockSlot::Bottom: elements.record("timeline", area); return;
        case DockSlot::RightTop: elements.record("explanation", area); return;
        case DockSlot::RightBottom: elements.record("inspector", area); return;
        case DockSlot::Dialogs:
        case DockSlot::SlideList:  // the lesson being made's slide list: not a part a tour points at
        case DockSlot::TokenStrip:  // shown only with a generation
        case DockSlot::AboveBottom:
        case DockSlot::StatusBar:
        case DockSlot::PresentTitle:  // presentation has no tour
        case DockSlot::PresentFooter: return;  // floating, or not a part a tour points at
    }
}

}  // namespace attn::gui
