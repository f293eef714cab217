#include "app/gui/views/view_inspector.h"

#include <imgui.h>

#include <algorithm>
#include <memory>
#include <string>

#include "app/gui/format.h"
#include "app/gui/colormap.h"
#include "app/gui/projection.h"
#include "core/explain_cell.h"
#include "app/text/step_text.h"
#include "core/step_text.h"

namespace attn::gui {
namespace {

using text::label;
using text::tr;
using text::trf;

// Like ImGui::TextWrapped, but lines break only at spaces: ImGui also breaks after a
// '.', which split "0.1756" into "0." and "1756".
void text_wrapped(const std::string& words) {
    const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4.0f);
    for (const std::string& line : wrap_at_spaces(words, width, [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; }))
        ImGui::TextUnformatted(line.c_str());
}

// Equal columns, nothing remembered: proportional widths learnt from the first frame a
// table appeared in could leave columns a few pixels wide for good.
constexpr ImGuiTableFlags kTableFlags =
    ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_RowBg | ImGuiTableFlags_NoSavedSettings;

std::string describe_index(const Results& results, const Tensor& t, const std::vector<int64_t>& idx) {
    std::string s = "[";
    for (int d = 0; d < t.rank(); ++d) {
        const std::string& name = t.dim_names()[static_cast<size_t>(d)];
        const int64_t i = idx[static_cast<size_t>(d)];
        s += (d ? ", " : "") + name + "=" + std::to_string(i);
        const DimRole role = t.dim_roles()[static_cast<size_t>(d)];
        const auto& tokens = role == DimRole::QueryPos ? results.query_tokens
                             : role == DimRole::KeyPos ? results.key_tokens
                                                       : std::vector<std::string>{};
        if (i < static_cast<int64_t>(tokens.size())) s += " '" + tokens[static_cast<size_t>(i)] + "'";
    }
    return s + "]";
}

void table_row(std::initializer_list<std::string> cells) {
    ImGui::TableNextRow();
    int column = 0;
    for (const std::string& cell : cells) {
        ImGui::TableSetColumnIndex(column++);
        ImGui::TextUnformatted(cell.c_str());
    }
}

// The text colour of head `head`, readable on the window background.
void push_head_color(int head) {
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    ImGui::PushStyleColor(ImGuiCol_Text, pack_rgba(with_contrast(head_color(head), Rgb{bg.x, bg.y, bg.z}, 4.5f)));
}

// "8 terms; the 6 largest:" above a summarised table; nothing when every term is listed.
void terms_caption(const CellExplanation& e) {
    if (e.omitted_terms > 0)
        ImGui::TextDisabled("%s", trf("inspector.projection.largest", {{"terms", static_cast<long long>(e.term_count)}, {"shown", e.terms.size()}}).c_str());
}

// "+ 94 more terms: 0.1234" below a summarised table, so the sum visibly closes.
void omitted_line(const CellExplanation& e) {
    if (e.omitted_terms > 0)
        ImGui::TextDisabled("%s", trf("inspector.more_terms", {{"terms", static_cast<long long>(e.omitted_terms)},
                                                               {"sum", format_value(static_cast<float>(e.omitted_sum))}}).c_str());
}

std::string key_label(const Results& results, int64_t j) {
    return j < static_cast<int64_t>(results.key_tokens.size()) ? std::to_string(j) + " " + results.key_tokens[static_cast<size_t>(j)]
                                                             : std::to_string(j);
}

// A table of a dot product's terms: index, the two factors, their product. `head_width`
// > 0 colours each index by the head whose context it reads (W_o's terms).
void products_table(const char* id, const char* index_name, const char* a_name, const char* b_name,
                    const CellExplanation& e, int head_width, const Results* key_tokens) {
    terms_caption(e);
    if (!ImGui::BeginTable(id, 4, kTableFlags)) return;
    ImGui::TableSetupColumn(index_name);
    ImGui::TableSetupColumn(a_name);
    ImGui::TableSetupColumn(b_name);
    ImGui::TableSetupColumn(label("inspector.column.product"));
    ImGui::TableHeadersRow();
    for (const Term& t : e.terms) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        if (head_width > 0) push_head_color(static_cast<int>(t.k / head_width));
        ImGui::TextUnformatted((key_tokens ? key_label(*key_tokens, t.k) : std::to_string(t.k)).c_str());
        if (head_width > 0) ImGui::PopStyleColor();
        const std::string cells[] = {format_value(t.a_value), format_value(t.b_value), format_value(t.value)};
        for (int column = 1; column < 4; ++column) {
            ImGui::TableSetColumnIndex(column);
            ImGui::TextUnformatted(cells[column - 1].c_str());
        }
    }
    ImGui::EndTable();
    omitted_line(e);
}

void sum_lines(const CellExplanation& e) {
    text_wrapped(trf("inspector.sum", {{"value", format_value(static_cast<float>(e.sum))}}));
    if (e.sum_rounds_visibly) ImGui::TextDisabled("%s", trf("inspector.stored_rounding", {{"value", format_value(e.value)}}).c_str());
}

// Y[n, o] = sum_i X[n, i] W[o, i] + b[o].
void draw_projection(const Trace& trace, const Step& step, const CellExplanation& e) {
    if (e.terms.empty()) return;
    const CellAddress& w = e.terms.front().b;
    const char* x_name = step_name(e.terms.front().a.step);
    const int64_t n = e.terms.front().a.index[1], o = w.row;
    text_wrapped(trf(e.has_bias ? "inspector.projection.terms_bias" : "inspector.projection.terms",
                     {{"row", static_cast<long long>(n)}, {"input", x_name}, {"column", static_cast<long long>(o)}, {"weight", weight_symbol(w.weight)}}));
    const int head_width = e.head_subtotals.empty() ? 0 : std::max(1, trace.config.head_dim());
    products_table("##proj", "i", "x[n,i]", "W[o,i]", e, head_width, nullptr);
    // W_o reads the heads' concatenation: "W_o mixes the heads" as a sum of per-head parts.
    if (!e.head_subtotals.empty()) {
        text_wrapped(trf("inspector.projection.per_head", {{"terms", head_width}}));
        if (ImGui::BeginTable("##per_head", 2, kTableFlags)) {
            ImGui::TableSetupColumn(label("inspector.column.head"));
            ImGui::TableSetupColumn(label("inspector.column.subtotal"));
            ImGui::TableHeadersRow();
            for (size_t h = 0; h < e.head_subtotals.size(); ++h) {
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(0);
                push_head_color(static_cast<int>(h));
                ImGui::TextUnformatted(trf("canvas.head", {{"head", h}}).c_str());
                ImGui::PopStyleColor();
                ImGui::TableSetColumnIndex(1);
                ImGui::TextUnformatted(format_value(static_cast<float>(e.head_subtotals[h])).c_str());
            }
            ImGui::EndTable();
        }
    }
    if (e.has_bias)
        text_wrapped(std::string("+ ") + bias_symbol(e.bias_cell.weight) + "[" + std::to_string(e.bias_cell.row) + "] = " + format_value(e.bias));
    (void)step;
    sum_lines(e);
}

// Where an input or weight number goes: the steps and how many of their cells read it.
void draw_flows(const CellExplanation& e) {
    for (const StepCells& flow : e.flows)
        text_wrapped(trf("inspector.flows.cells", {{"step", step_name(flow.step)}, {"cells", flow.cells.size()}}));
}

void draw_explanation_of(const Results& results, const Step* step, const CellExplanation& e) {
    const Trace& trace = *results.trace;
    const int64_t i = e.cell.index.size() > 2 ? e.cell.index[2] : 0;  // query row of a (B, H, L, *) map
    const int64_t j = e.cell.index.size() > 3 ? e.cell.index[3] : 0;  // key or feature column
    const int dh = trace.config.head_dim();
    switch (e.rule) {
        case CellRule::Given:
            text_wrapped(std::string(tr("inspector.input")) + " " + tr("inspector.flows.into"));
            draw_flows(e);
            break;
        case CellRule::Parameter:
            text_wrapped(std::string(tr("inspector.parameter")) + " " + tr("inspector.flows.into"));
            draw_flows(e);
            break;
        case CellRule::DotProduct:
            if (!step) break;
            switch (step->kind) {
                case StepKind::Scores:
                    text_wrapped(trf("inspector.scores.dot", {{"query", static_cast<long long>(i)}, {"key", static_cast<long long>(j)}}));
                    products_table("##dot", "d", "q[i,d]", "k[j,d]", e, 0, nullptr);
                    sum_lines(e);
                    break;
                case StepKind::WeightedSum:
                    text_wrapped(trf("inspector.weighted_sum", {{"row", static_cast<long long>(i)}, {"d", static_cast<long long>(j)}}));
                    products_table("##wsum", label("inspector.column.key_j"), label("inspector.column.weight"), "v[j,d]", e, 0, &results);
                    sum_lines(e);
                    break;
                default: draw_projection(trace, *step, e); break;
            }
            break;
        case CellRule::Scale: {
            text_wrapped(format_value(e.operand_value) + " x 1/sqrt(" + std::to_string(dh) + ") = " + format_value(e.operand_value) + " x " +
                         format_value(e.factor) + " = " + format_value(e.value));
            const std::string effect =
                text::describe_scaling_effect(scaling_effect(trace, static_cast<int>(e.cell.index[0]), static_cast<int>(e.cell.index[1]), static_cast<int>(i)), dh);
            if (!effect.empty()) text_wrapped(effect);
            break;
        }
        case CellRule::MaskKept: text_wrapped(tr("inspector.mask.allowed")); break;
        case CellRule::MaskFilled: {
            const std::string why = e.mask_reason == MaskReason::Causal    ? std::string(tr("inspector.mask.reason.causal"))
                                    : e.mask_reason == MaskReason::Padding ? trf("inspector.mask.reason.padding", {{"valid", e.valid_length}})
                                                                           : std::string(tr("inspector.mask.reason.custom"));
            text_wrapped(trf("inspector.mask.masked", {{"key", static_cast<long long>(j)}, {"query", static_cast<long long>(i)}, {"mask", why}}));
            break;
        }
        case CellRule::FullyMaskedRow: {
            const std::string note = text::fully_masked_row_note(trace, static_cast<int>(e.cell.index[0]), static_cast<int>(e.cell.index[1]), static_cast<int>(i));
            text_wrapped(note);
            break;
        }
        case CellRule::Softmax:
            text_wrapped(trf("inspector.softmax.row", {{"row", static_cast<long long>(i)}, {"max", format_value(e.row_max)}, {"sum", format_value(e.exp_sum)}}));
            terms_caption(e);
            if (ImGui::BeginTable("##softmax", 4, kTableFlags)) {
                ImGui::TableSetupColumn(label("inspector.column.key_j"));
                ImGui::TableSetupColumn(label("inspector.column.score"));
                ImGui::TableSetupColumn(label("inspector.column.exp"));
                ImGui::TableSetupColumn(label("inspector.column.weight"));
                ImGui::TableHeadersRow();
                for (const Term& t : e.terms)
                    table_row({std::to_string(t.k) + (t.k == j ? " <" : ""), format_value(t.a_value), format_value(t.value),
                               format_value(t.output)});
                ImGui::EndTable();
            }
            omitted_line(e);
            text_wrapped(trf("inspector.softmax.cell", {{"score", format_value(e.operand_value)}, {"max", format_value(e.row_max)},
                                                        {"sum", format_value(e.exp_sum)}, {"value", format_value(e.value)}}));
            break;
        case CellRule::DropoutKept:
            text_wrapped(trf("inspector.dropout.kept", {{"draw", text::fixed(e.dropout_draw, 3)}, {"weight", format_value(e.operand_value)},
                                                        {"p", text::fixed(e.dropout_p, 2)}, {"value", format_value(e.value)}}));
            break;
        case CellRule::DropoutDropped:
            text_wrapped(trf("inspector.dropout.dropped", {{"draw", text::fixed(e.dropout_draw, 3)}, {"p", text::fixed(e.dropout_p, 2)},
                                                           {"weight", format_value(e.operand_value)}}));
            break;
        case CellRule::NotExplained:  // a trained model's steps (core/model/): the step text explains them
            text_wrapped(tr("inspector.model_step"));
            break;
        case CellRule::Move:
            if (step)
                text_wrapped(trf(step->is_view ? "inspector.same_number.view" : "inspector.same_number.copy",
                                 {{"source", step_name(e.operand.step) + shape_text(e.operand.index)}}));
            break;
    }
}

// The core's address of the cell `ref` points at: a result cell, or a cell of a
// projection's X, W^T or b (the W^T column is the output feature, its row the input one).
bool address_of(const Results& results, const CellRef& ref, CellAddress& out) {
    const Step& step = results.trace->steps[static_cast<size_t>(ref.step)];
    const StepDisplay& sd = results.model->steps[static_cast<size_t>(ref.step)];
    if (ref.panel >= static_cast<int>(sd.panels.size()) || ref.row < 0 || ref.col < 0) return false;
    const Panel& panel = sd.panels[static_cast<size_t>(ref.panel)];
    const int64_t feature = panel_first_feature(sd, panel, std::max(1, results.trace->config.head_dim())) + ref.col;
    switch (ref.part) {
        case CellRef::Part::Result:
            if (ref.row >= panel.rows || ref.col >= panel.cols) return false;
            out = CellAddress::of_step(step.id, cell_index(panel, ref.row, ref.col));
            return true;
        case CellRef::Part::Input:
            if (!step.has_primary_source()) return false;
            out = CellAddress::of_step(step.primary_source(), {results.model->batch_item, ref.row, ref.col});
            return true;
        case CellRef::Part::Weight: out = CellAddress::of_weight(step.provenance.weight, feature, ref.row); return true;
        case CellRef::Part::Bias: out = CellAddress::of_bias(step.provenance.weight, feature); return true;
    }
    return false;
}

}  // namespace

void draw_inspector(const Results& results, const CanvasUi& canvas, int current_step) {
    const CellRef ref = canvas.hovered.valid() ? canvas.hovered : canvas.pinned;
    CellAddress address;
    if (!results.trace || !results.model || !ref.valid() || ref.step >= static_cast<int>(results.model->steps.size()) ||
        !address_of(results, ref, address)) {
        ImGui::TextDisabled("%s", tr("inspector.hover_hint"));
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
        text_wrapped(step->name() + describe_index(results, step->tensor, address.index));
        text_wrapped("= " + format_value(e.value));
        ImGui::TextDisabled("%s", trf("inspector.storage_position",
                                      {{"position", static_cast<long long>(step->tensor.offset() + step->tensor.offset_of(address.index))},
                                       {"buffer", results.model->steps[static_cast<size_t>(shown)].strip.buffer_id}}).c_str());
    } else if (address.kind == CellAddress::Kind::Weight) {
        text_wrapped(std::string(weight_symbol(address.weight)) + "[o=" + std::to_string(address.row) + ", i=" + std::to_string(address.col) + "]");
        text_wrapped("= " + format_value(e.value));
    } else {
        text_wrapped(std::string(bias_symbol(address.weight)) + "[o=" + std::to_string(address.row) + "]");
        text_wrapped("= " + format_value(e.value));
    }
    ImGui::Separator();
    draw_explanation_of(results, step, e);
    // The cells the canvas highlights for this one, so the count is on record too.
    if (e.rule != CellRule::Given && e.rule != CellRule::Parameter) {
        std::string reads;
        for (const StepCells& h : e.highlights)
            reads += (reads.empty() ? "" : ", ") + trf("inspector.reads.part", {{"cells", h.cells.size()}, {"step", step_name(h.step)}});
        if (!reads.empty()) ImGui::TextDisabled("%s", trf("inspector.reads", {{"cells", reads}}).c_str());
    }
}

}  // namespace attn::gui
