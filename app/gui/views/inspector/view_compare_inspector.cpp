#include "app/gui/views/inspector/view_compare_inspector.h"

#include <imgui.h>

#include <iterator>
#include <string>

#include "app/gui/display/format.h"
#include "app/text/languages.h"

namespace attn::gui {

void draw_compare_inspector(const AppState& state, const CanvasUi& canvas) {
    const CellRef cell = canvas.hovered.valid() ? canvas.hovered : canvas.pinned;
    const ComparedCell values = compare_cell(state, cell);
    if (!values.has_a) return;
    const std::string none = text::tr("compare.inspector.none");
    const auto shown = [&](bool has, float v) { return has ? format_value(v, 6) : none; };
    // Each value whole on a line, the next beside it when the panel has room (a 1024 px
    // window's inspector holds "A: 0.1234" but not all three).
    const std::string parts[] = {text::trf("compare.inspector.value_a", {{"value", shown(values.has_a, values.a)}}),
                                 text::trf("compare.inspector.value_b", {{"value", shown(values.has_b, values.b)}}),
                                 text::trf("compare.inspector.value_difference",
                                           {{"value", shown(values.has_difference, values.difference)}})};
    const float space = ImGui::GetFontSize() * 1.2f;
    for (size_t i = 0; i < std::size(parts); ++i) {
        const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
        if (i > 0 && ImGui::GetItemRectMax().x + space + ImGui::CalcTextSize(parts[i].c_str()).x <= right) ImGui::SameLine(0.0f, space);
        ImGui::TextUnformatted(parts[i].c_str());
    }
    ImGui::Separator();
}

}  // namespace attn::gui
