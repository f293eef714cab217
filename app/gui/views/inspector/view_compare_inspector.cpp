#include "app/gui/views/inspector/view_compare_inspector.h"

#include <imgui.h>

#include "app/gui/display/format.h"
#include "app/text/languages.h"

namespace attn::gui {

void draw_compare_inspector(const AppState& state, const CanvasUi& canvas) {
    const CellRef cell = canvas.hovered.valid() ? canvas.hovered : canvas.pinned;
    const ComparedCell values = compare_cell(state, cell);
    if (!values.has_a) return;
    const std::string none = text::tr("compare.inspector.none");
    const auto shown = [&](bool has, float v) { return has ? format_value(v, 6) : none; };
    ImGui::TextUnformatted(text::trf("compare.inspector.values", {{"a", shown(values.has_a, values.a)},
                                                                 {"b", shown(values.has_b, values.b)},
                                                                 {"difference", shown(values.has_difference, values.difference)}})
                               .c_str());
    ImGui::Separator();
}

}  // namespace attn::gui
