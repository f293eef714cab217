#include "app/gui/views/view_timeline.h"

#include <imgui.h>

#include <cmath>

#include "app/gui/fonts_theme.h"

namespace attn::gui {

void draw_timeline(AppState& state) {
    if (!state.trace) {
        ImGui::TextDisabled("no trace yet");
        return;
    }
    Playback& pb = state.playback;
    const int n = static_cast<int>(state.trace->steps.size());
    if (ImGui::Button("|<")) pb.jump_to(0);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("first step (Home)");
    ImGui::SameLine();
    if (ImGui::Button(" < ")) pb.previous();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("previous step, animated backwards (Left / PageUp)");
    ImGui::SameLine();
    if (ImGui::Button(pb.playing() ? "pause" : "play ", ImVec2(ImGui::GetFontSize() * 4.0f, 0))) pb.toggle_play();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("Space");
    ImGui::SameLine();
    if (ImGui::Button(" > ")) pb.next();
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("next step (Right / PageDown)");
    ImGui::SameLine();
    if (ImGui::Button(">|")) pb.jump_to(n - 1);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("last step (End)");
    ImGui::SameLine();
    // Scrub: the whole lesson as one continuous position, step + progress.
    float position = static_cast<float>(pb.step()) + pb.progress();
    ImGui::SetNextItemWidth(-1.0f);
    const std::string label = "step " + std::to_string(pb.step() + 1) + " / " + std::to_string(n) + "   " +
                              std::to_string(static_cast<int>(std::lround(pb.progress() * 100))) + "%%";
    if (ImGui::SliderFloat("##scrub", &position, 0.0f, static_cast<float>(n), label.c_str(), ImGuiSliderFlags_AlwaysClamp)) {
        const int step = std::min(n - 1, static_cast<int>(std::floor(position)));
        pb.set_position(step, position - static_cast<float>(step));
    }

    // Step chips, scrolling sideways when they do not fit.
    ImGui::BeginChild("##steps", ImVec2(0, 0), false, ImGuiWindowFlags_HorizontalScrollbar);
    for (int i = 0; i < n; ++i) {
        const Step& step = state.trace->steps[static_cast<size_t>(i)];
        if (i > 0) ImGui::SameLine(0.0f, ImGui::GetStyle().ItemSpacing.x * 0.5f);
        const bool current = i == pb.step();
        if (current) {
            // White on a deep blue: 6.9:1 in both themes (ImGui's ButtonActive gave 3.5:1).
            ImGui::PushStyleColor(ImGuiCol_Button, to_imvec4(theme_colors(state.settings.light_theme).chip_bg));
            ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
        }
        const std::string chip = std::to_string(i + 1) + " " + step.name + (step.is_view ? " (view)" : "");
        if (ImGui::Button(chip.c_str())) pb.jump_to(i);
        if (current) {
            ImGui::PopStyleColor(2);
            if (pb.animating()) ImGui::SetScrollHereX(0.5f);
        }
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s\n%s", step.title.c_str(), step.formula.c_str());
    }
    ImGui::EndChild();
}

}  // namespace attn::gui
