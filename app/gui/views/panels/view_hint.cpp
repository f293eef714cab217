#include "app/gui/views/panels/view_hint.h"

#include <imgui.h>
#include <imgui_internal.h>

#include "app/gui/views/controls/view_controls_widgets.h"

#include <algorithm>

#include "app/gui/kit/cjk_wrap.h"
#include "app/gui/views/view_registry.h"
#include "app/text/languages.h"

namespace attn::gui {

Actions draw_first_run_hint(bool hint_seen, bool have_trace, int step, const Rect& area, float pictures_bottom) {
    Actions out;
    if (hint_seen || !have_trace) return out;
    if (step != 0) {  // they found their way: no need to tell them
        out.hint_dismissed = true;
        return out;
    }
    const float fs = ImGui::GetFontSize();
    const float hint_w = std::min(area.w - fs, fs * 34.0f);
    // Its top just under the pictures, over the storage strip, when it fits above the step
    // tabs it points at; else its bottom on them (covering as little of the pictures as it can).
    ImGuiWindow* last = ImGui::FindWindowByName("##first_run_hint");
    const float hint_h = last ? last->Size.y : fs * 6.0f;
    const bool hangs = pictures_bottom > 0.0f && pictures_bottom + hint_h <= area.y;
    ImGui::SetNextWindowPos(ImVec2(area.x + (area.w - hint_w) * 0.5f, hangs ? pictures_bottom : area.y), ImGuiCond_Always,
                            ImVec2(0.0f, hangs ? 0.0f : 1.0f));
    ImGui::SetNextWindowSize(ImVec2(hint_w, 0.0f));
    ImGui::SetNextWindowBgAlpha(0.94f);
    ImGui::Begin("##first_run_hint", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_AlwaysAutoResize |
                                                  ImGuiWindowFlags_NoFocusOnAppearing);
    text_wrapped(text::tr("hint.first_run"));
    if (ImGui::Button(text::label("hint.got_it"))) out.hint_dismissed = true;
    ImGui::SameLine();
    quiet_note(text::tr("hint.keyboard"));
    if (ImGui::Button(text::label("tour.start"))) {  // Help > Tour, from the first screen
        out.start_tour = true;
        out.hint_dismissed = true;
    }
    ImGui::End();
    return out;
}

}  // namespace attn::gui
