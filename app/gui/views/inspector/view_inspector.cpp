#include "app/gui/views/inspector/view_inspector.h"

#include <imgui.h>

#include "app/gui/views/controls/view_controls_widgets.h"

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/display/format.h"
#include "app/gui/state/follow_state.h"
#include "app/gui/kit/test_hook.h"
#include "app/gui/views/inspector/view_inspector_rules.h"
#include "core/explain_cell.h"
#include "app/text/step_text.h"
#include "app/text/text_join.h"
#include "app/text/token_script.h"

namespace attn::gui {
namespace {

using text::label;
using text::tr;
using text::trf;

void text_wrapped(const std::string& words) { inspector_text(words); }

// "[B=0, L=3 'cat', S=1 'dog']": each index, with the token (or, on the next-word
// distribution's last axis, the vocabulary word) it stands for.
std::string describe_index(const Results& results, const Step& step, const std::vector<int64_t>& idx) {
    const Tensor& t = step.tensor;
    static const std::vector<std::string> kNoWords;
    std::string s = "[";
    for (int d = 0; d < t.rank(); ++d) {
        const std::string& name = t.dim_names()[static_cast<size_t>(d)];
        const int64_t i = idx[static_cast<size_t>(d)];
        s += (d ? ", " : "") + name + "=" + std::to_string(i);
        const DimRole role = t.dim_roles()[static_cast<size_t>(d)];
        const auto& tokens = role == DimRole::QueryPos     ? results.query_tokens
                             : role == DimRole::KeyPos     ? results.key_tokens
                             : role == DimRole::Vocabulary ? results.trace->model.vocabulary
                                                           : kNoWords;
        if (i < static_cast<int64_t>(tokens.size()))
            s += " '" + text::shown_token(results.trace->model.script_forms, tokens[static_cast<size_t>(i)]) + "'";
    }
    return s + "]";
}

// Follow / Unfollow for the pinned cell: its lineage is then highlighted in every step.
void follow_button(CanvasUi& canvas) {
    if (!canvas.pinned.valid()) return;
    FollowUi& follow = canvas.follow;
    const bool following = follow.cell == canvas.pinned;
    if (ImGui::SmallButton(label(following ? "follow.unfollow" : "follow.follow"))) follow.cell = following ? CellRef{} : canvas.pinned;
    note_item_for_tests("follow.follow");
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(following ? "follow.unfollow.tip" : "follow.follow.tip"));
}

}  // namespace

void draw_inspector(const Results& results, CanvasUi& canvas, int current_step, const MaskOrigins& origins) {
    const CellRef ref = canvas.hovered.valid() ? canvas.hovered : canvas.pinned;
    CellAddress address;
    if (!address_of(results, ref, address)) {
        quiet_note(tr("inspector.hover_hint"));
        return;
    }
    if (results.model->colour_scale.difference_from_float32) {
        // The cell holds |x - x_fp32|, not a value its rule would explain (fp32_difference.h),
        // and the trace carries no weights: no explain_cell here.
        const Step* step = address.kind == CellAddress::Kind::Step ? results.trace->find(address.step) : nullptr;
        if (!step) return;
        text_wrapped(step->name() + describe_index(results, *step, address.index));
        text_wrapped("= " + format_value(step->tensor.at(address.index)));
        ImGui::Separator();
        text_wrapped(tr("inspector.difference_from_float32"));
        return;
    }
    // The same cell of the same trace explains the same way: compute it when the mouse
    // moves to another cell (an input's "flows" list can cover every cell that reads it).
    struct LastExplanation {
        std::weak_ptr<const Trace> trace;
        CellAddress address;
        CellExplanation explanation;
    };
    static LastExplanation last;
    if (last.trace.lock() != results.trace || !(last.address == address))
        last = {results.trace, address, explain_cell(*results.trace, address)};
    const CellExplanation& e = last.explanation;
    if (!e.valid) return;
    if (!canvas.hovered.valid() && ref.step != current_step) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        text_wrapped(trf("inspector.pinned_elsewhere", {{"step", ref.step + 1}}));
        ImGui::PopStyleColor();
    }
    const Step* step = address.kind == CellAddress::Kind::Step ? results.trace->find(address.step) : nullptr;
    if (step) {
        const int shown = results.trace->index_of(address.step);
        text_wrapped(step->name() + describe_index(results, *step, address.index));
        text_wrapped("= " + format_value(e.value));
        quiet_note(trf("inspector.storage_position",
                                      {{"position", static_cast<long long>(step->tensor.offset() + step->tensor.offset_of(address.index))},
                                       {"buffer", results.model->steps[static_cast<size_t>(shown)].strip.buffer_id}}));
    } else if (address.kind == CellAddress::Kind::Weight) {
        text_wrapped(std::string(weight_symbol(address.weight)) + "[o=" + std::to_string(address.row) + ", i=" + std::to_string(address.col) + "]");
        text_wrapped("= " + format_value(e.value));
    } else {
        text_wrapped(std::string(bias_symbol(address.weight)) + "[o=" + std::to_string(address.row) + "]");
        text_wrapped("= " + format_value(e.value));
    }
    follow_button(canvas);
    ImGui::Separator();
    draw_cell_explanation(results, step, e, origins);
    // The cells the canvas highlights for this one, so the count is on record too.
    if (e.rule != CellRule::Given && e.rule != CellRule::Parameter) {
        std::vector<std::string> parts;
        for (const StepCells& h : e.highlights)
            parts.push_back(trf("inspector.reads.part", {{"cells", h.cells.size()}, {"step", step_name(h.step)}}));
        const std::string reads = text::join_list(parts);
        if (!reads.empty()) {  // wrapped: "reads 2 of q_heads, 1 of rope_cos, 1 of rope_sin" outgrows a 1024-wide window
            ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
            text_wrapped(trf("inspector.reads", {{"cells", reads}}));
            ImGui::PopStyleColor();
        }
    }
}

}  // namespace attn::gui
