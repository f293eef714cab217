#include "app/gui/views/view_explain.h"

#include <imgui.h>

#include <string>

#include "app/gui/fonts_theme.h"
#include "core/step_text.h"

namespace attn::gui {

void draw_explanation(const Trace* trace, int index, bool light_theme, const Fonts& fonts, bool large) {
    if (!trace || trace->steps.empty()) {
        ImGui::TextDisabled("Waiting for the first trace...");
        return;
    }
    const Step& step = trace->steps[static_cast<size_t>(index)];
    ImGui::PushFont(fonts.large);
    ImGui::TextWrapped("%d. %s", index + 1, step.title.c_str());
    ImGui::PopFont();
    if (large) ImGui::PushFont(fonts.large);
    const ThemeColors colors = theme_colors(light_theme);
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(colors.formula));
    ImGui::TextWrapped("%s", step.formula.c_str());
    ImGui::PopStyleColor();

    // Shapes before -> after, with named dimensions.
    for (StepId source : step.sources) {
        if (const Step* s = trace->find(source)) {
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
            ImGui::TextWrapped("%s %s", s->name(), s->tensor.shape_string().c_str());
            ImGui::PopStyleColor();
        }
    }
    ImGui::TextWrapped("-> %s %s", step.name(), step.tensor.shape_string().c_str());
    // Wrapped, not TextColored: a narrow panel must not cut the sentence off.
    const auto colored_wrapped = [](Rgb color, const char* text) {
        ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(color));
        ImGui::TextWrapped("%s", text);
        ImGui::PopStyleColor();
    };
    if (step.is_view) {
        colored_wrapped(colors.good, step.tensor.is_contiguous() ? "a view: same storage, no bytes copied"
                                                                 : "a view: same storage, no bytes copied (now not contiguous)");
    } else if (const std::string badge = copy_badge(step.id, trace->config); !badge.empty()) {
        colored_wrapped(colors.warning, badge.c_str());
    }
    ImGui::Spacing();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(step.explanation.c_str());
    ImGui::PopTextWrapPos();
    if (step.kind == StepKind::Softmax || step.kind == StepKind::Mask) {
        const int fully = trace->count_fully_masked_rows();
        if (fully > 0) {
            const std::string note = std::to_string(fully) + " query row(s) have every key masked: their weights are all zero, not NaN.";
            colored_wrapped(colors.warning, note.c_str());
        }
    }
    if (large) ImGui::PopFont();
}

}  // namespace attn::gui
