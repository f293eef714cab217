#include "app/gui/views/controls/view_input_editor.h"

#include <imgui.h>

#include "app/gui/kit/cjk_wrap.h"

#include "app/gui/views/controls/view_controls_widgets.h"
#include <imgui_stdlib.h>

#include <cerrno>
#include <cstdlib>
#include <optional>
#include <string>

#include "app/gui/kit/fonts_theme.h"
#include "app/gui/display/format.h"
#include "app/gui/state/input_edit.h"
#include "app/text/languages.h"
#include "app/text/message_text.h"

namespace attn::gui {
namespace {

// The typed text as one float, or an empty optional for anything else ("1.5x", "", "e").
std::optional<float> parse_number(const std::string& typed) {
    const char* begin = typed.c_str();
    while (*begin == ' ') ++begin;
    if (*begin == '\0') return std::nullopt;
    char* end = nullptr;
    errno = 0;
    const float value = std::strtof(begin, &end);
    while (*end == ' ') ++end;
    if (*end != '\0' || errno == ERANGE) return std::nullopt;
    return value;
}

}  // namespace

Actions draw_input_editor(const Session& session, const Results& results, UiState& ui, bool light_theme) {
    Actions out;
    const CellRef& pinned = ui.canvas.pinned;
    // Only for the pinned cell (hovering elsewhere leaves it) of the input step itself.
    if (!results.trace || !results.model || !pinned.valid() || pinned.part != CellRef::Part::Result ||
        pinned.step >= static_cast<int>(results.trace->steps.size()) ||
        !step_info(results.trace->steps[static_cast<size_t>(pinned.step)].id).editable_input() ||
        !input_cells_editable(session, *results.trace))
        return out;
    const Trace& trace = *results.trace;
    const int item = results.model->batch_item;
    const Tensor& input = trace.steps[static_cast<size_t>(pinned.step)].tensor;  // (B, L, d_in)
    if (input.rank() != 3 || pinned.row >= input.dim(1) || pinned.col >= input.dim(2)) return out;
    InputEditUi& edit = ui.input_edit;
    // A text typed for one cell of one batch item never stands beside another's number.
    if (!(edit.cell == pinned) || edit.item != item) edit = {pinned, item, format_value(input.at({item, pinned.row, pinned.col})), Message()};

    ImGui::Separator();
    text_wrapped(text::trf("inspector.edit_input", {{"row", pinned.row}, {"col", pinned.col}}).c_str());
    ImGui::SetNextItemWidth(ImGui::GetFontSize() * 8.0f);
    const bool entered = ImGui::InputText("##input_edit", &edit.text, ImGuiInputTextFlags_EnterReturnsTrue);
    // The tip would cover the refusal drawn just under the field: while one shows, it says enough.
    if (ImGui::IsItemHovered() && edit.message.empty()) ImGui::SetTooltip("%s", text::tr("inspector.edit_input.tip"));
    if (entered) {
        const std::optional<float> value = parse_number(edit.text);
        Session edited = session;
        edit.message = value ? edit_input_cell(edited, trace, item, pinned.row, pinned.col, *value, results.query_tokens)
                             : Message("inspector.edit_input.not_a_number", {{"text", edit.text}});
        if (edit.message.empty()) {
            out.session_edit = std::move(edited);
            out.config_changed = true;
        }
    }
    if (!edit.message.empty()) {
        ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(theme_colors(light_theme).warning));
        text_wrapped(text::render(edit.message).c_str());
        ImGui::PopStyleColor();
    }
    if (input.dim(0) > 1) quiet_note(text::trf("inspector.edit_input.all_items", {{"item", item}}));
    return out;
}

}  // namespace attn::gui
