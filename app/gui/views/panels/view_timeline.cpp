#include "app/gui/views/panels/view_timeline.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>
#include <vector>

#include "app/gui/kit/fonts_theme.h"
#include "app/gui/display/layout.h"
#include "app/text/step_text.h"

namespace attn::gui {
namespace {

using text::label;
using text::tr;

// A tab's label at each level of detail (see step_tab_detail).
std::string tab_label(const Step& step, int index, int level) {
    const std::string number = std::to_string(index + 1);
    if (level >= 2) return number;
    if (level == 1) return number + " " + step.name();
    return number + " " + step.name() + (step.is_view ? tr("timeline.tab_view_suffix") : "");
}

// First, previous, play, next, last; where we are; the scrub bar.
void draw_playback_controls(Playback& pb, int n) {
    if (ImGui::Button("|<")) pb.jump_to(0);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("timeline.first.tip"));
    ImGui::SameLine();
    if (ImGui::Button(" < ")) pb.previous();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("timeline.previous.tip"));
    ImGui::SameLine();
    if (ImGui::Button(label(pb.playing() ? "timeline.pause" : "timeline.play"), ImVec2(ImGui::GetFontSize() * 4.0f, 0))) pb.toggle_play();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("timeline.play.tip"));
    ImGui::SameLine();
    if (ImGui::Button(" > ")) pb.next();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("timeline.next.tip"));
    ImGui::SameLine();
    if (ImGui::Button(">|")) pb.jump_to(n - 1);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("timeline.last.tip"));
    ImGui::SameLine();
    // Where we are, as text beside the scrub bar (inside it, the grab covered it).
    const std::string where = text::trf("timeline.where", {{"step", pb.step() + 1}, {"steps", n}});
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(where.c_str());
    if (ImGui::IsItemHovered()) {
        ImGui::SetTooltip("%s", text::trf("timeline.where.tip", {{"percent", static_cast<int>(std::lround(pb.progress() * 100))}}).c_str());
    }
    ImGui::SameLine();
    // Scrub: the whole lesson as one continuous position, step + progress.
    float position = static_cast<float>(pb.step()) + pb.progress();
    ImGui::SetNextItemWidth(-1.0f);
    if (ImGui::SliderFloat("##scrub", &position, 0.0f, static_cast<float>(n), "", ImGuiSliderFlags_AlwaysClamp)) {
        const int step = std::min(n - 1, static_cast<int>(std::floor(position)));
        pb.set_position(step, position - static_cast<float>(step));
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("timeline.scrub.tip"));
}

// Step tabs: as much of each name as lets all of them fit; else they scroll, and the
// current one is scrolled into view when it changes and is out of view. The current tab
// shows its whole name, but while the mouse is over the strip the tabs stay where they
// were (the one named in full changes once the mouse leaves): a tab that grew, or a strip
// that scrolled, moved the tab under the mouse, and a second click landed on another step.
void draw_step_tabs(const Trace* trace, Playback& pb, bool light_theme) {
    const int n = static_cast<int>(trace->steps.size());
    const ImGuiStyle& style = ImGui::GetStyle();
    const float spacing = style.ItemSpacing.x * 0.5f;
    std::vector<std::vector<float>> widths(3, std::vector<float>(static_cast<size_t>(n)));
    for (int level = 0; level < 3; ++level) {
        for (int i = 0; i < n; ++i) {
            const std::string label = tab_label(trace->steps[static_cast<size_t>(i)], i, level);
            widths[static_cast<size_t>(level)][static_cast<size_t>(i)] =
                ImGui::CalcTextSize(label.c_str()).x + style.FramePadding.x * 2.0f;
        }
    }
    const int current_step = pb.step();
    ImGuiStorage* storage = ImGui::GetStateStorage();
    const ImGuiID full_key = ImGui::GetID("##named_in_full");
    const ImVec2 strip_at = ImGui::GetCursorScreenPos(), strip_size = ImGui::GetContentRegionAvail();
    const bool mouse_on_strip = ImGui::IsMouseHoveringRect(strip_at, ImVec2(strip_at.x + strip_size.x, strip_at.y + strip_size.y), false);
    if (!mouse_on_strip) storage->SetInt(full_key, current_step);
    const int in_full = std::min(n - 1, storage->GetInt(full_key, current_step));
    const int level = step_tab_detail(widths, in_full, spacing, strip_size.x - 2.0f);
    ImGui::BeginChild("##steps", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    const ImGuiID shown_key = ImGui::GetID("##scrolled_to");
    const bool step_changed = storage->GetInt(shown_key, -1) != current_step;
    for (int i = 0; i < n; ++i) {
        const Step& step = trace->steps[static_cast<size_t>(i)];
        if (i > 0) ImGui::SameLine(0.0f, spacing);
        const bool current = i == current_step;
        if (current) {
            // White on a deep blue: 6.9:1 in both themes (ImGui's ButtonActive gave 3.5:1).
            ImGui::PushStyleColor(ImGuiCol_Button, to_imvec4(theme_colors(light_theme).chip_bg));
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
        }
        const std::string chip = tab_label(step, i, i == in_full ? 0 : level) + "##tab" + std::to_string(i);
        if (ImGui::Button(chip.c_str())) pb.jump_to(i);
        if (current) {
            ImGui::PopStyleColor(2);
            const ImRect view = ImGui::GetCurrentWindow()->ClipRect;
            const bool out_of_view = ImGui::GetItemRectMin().x < view.Min.x || ImGui::GetItemRectMax().x > view.Max.x;
            if (step_changed && out_of_view && !mouse_on_strip) ImGui::SetScrollHereX(0.5f);
            if (!mouse_on_strip) storage->SetInt(shown_key, current_step);
        }
        if (ImGui::IsItemHovered()) {
            // Name, title and formula: what the tab shortens (the kind alone repeated the title).
            const text::StepText words = text::describe_step(step, *trace);
            ImGui::SetTooltip("%d %s: %s%s\n%s", i + 1, step.name(), words.title.c_str(),
                              step.is_view ? tr("timeline.tab_tip_view_suffix") : "", words.formula.c_str());
        }
    }
    // The wheel scrolls the row of tabs sideways.
    if (ImGui::IsWindowHovered() && ImGui::GetIO().MouseWheel != 0.0f) {
        ImGui::SetScrollX(ImGui::GetScrollX() - ImGui::GetIO().MouseWheel * ImGui::GetFontSize() * 3.0f);
    }
    ImGui::EndChild();
}

}  // namespace

void draw_timeline(const Trace* trace, Playback& pb, bool light_theme) {
    if (!trace) {
        ImGui::TextDisabled("%s", tr("timeline.no_trace"));
        return;
    }
    const int n = static_cast<int>(trace->steps.size());
    draw_playback_controls(pb, n);
    draw_step_tabs(trace, pb, light_theme);
}

}  // namespace attn::gui
