#include "app/gui/views/view_explain.h"

#include <imgui.h>

namespace attn::gui {

void draw_explanation(const AppState& state, const Fonts& fonts, bool large) {
    if (!state.trace || state.trace->steps.empty()) {
        ImGui::TextDisabled("Waiting for the first trace...");
        return;
    }
    const int index = state.playback.step();
    const Step& step = state.trace->steps[static_cast<size_t>(index)];
    ImGui::PushFont(fonts.large);
    ImGui::TextWrapped("%d. %s", index + 1, step.title.c_str());
    ImGui::PopFont();
    if (large) ImGui::PushFont(fonts.large);
    ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(0.45f, 0.75f, 1.0f, 1.0f));
    ImGui::TextWrapped("%s", step.formula.c_str());
    ImGui::PopStyleColor();

    // Shapes before -> after, with named dimensions.
    for (const std::string& source : step.sources) {
        if (const Step* s = state.trace->find(source)) {
            ImGui::TextDisabled("%s %s", s->name.c_str(), s->tensor.shape_string().c_str());
        }
    }
    ImGui::Text("-> %s %s", step.name.c_str(), step.tensor.shape_string().c_str());
    if (step.is_view) {
        ImGui::TextColored(ImVec4(0.4f, 0.85f, 0.5f, 1.0f), "a view: same storage, no bytes copied%s",
                           step.tensor.is_contiguous() ? "" : " (now not contiguous)");
    } else if (step.kind == StepKind::Concat) {
        ImGui::TextColored(ImVec4(0.95f, 0.7f, 0.35f, 1.0f), "a copy: .contiguous() writes a new buffer");
    }
    ImGui::Spacing();
    ImGui::PushTextWrapPos(0.0f);
    ImGui::TextUnformatted(step.explanation.c_str());
    ImGui::PopTextWrapPos();
    if (step.kind == StepKind::Softmax || step.kind == StepKind::Mask) {
        const int fully = state.trace->count_fully_masked_rows();
        if (fully > 0) {
            ImGui::TextColored(ImVec4(1.0f, 0.55f, 0.35f, 1.0f),
                               "%d query row(s) have every key masked: their weights are all zero, not NaN.", fully);
        }
    }
    if (large) ImGui::PopFont();
}

}  // namespace attn::gui
