// The inspector's drawing of each CellRule. Sections:
//   [1] Pieces           wrapped text, tables of terms, the sum lines
//   [2] Attention rules  projections, dot products, scale, mask, softmax, dropout, moves
//   [3] Option rules    extra key rows, RoPE, repeat_kv, the head mean, --dtype rounding
//   [4] Model rules      lookups, sums, LayerNorm, predictions, a later layer's input
//   [5] The dispatch     draw_cell_explanation
#include "app/gui/views/inspector/view_inspector_rules.h"

#include <imgui.h>

#include "app/gui/views/controls/view_controls_widgets.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/gui/display/colormap.h"
#include "app/gui/display/format.h"
#include "app/text/step_text.h"
#include "app/text/text_join.h"
#include "app/text/token_script.h"
#include "core/step_text.h"

namespace attn::gui {

using text::label;
using text::tr;
using text::trf;

void inspector_text(const std::string& words) {
    const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4.0f);
    for (const std::string& line : wrap_at_spaces(words, width, [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; }))
        ImGui::TextUnformatted(line.c_str());
}

namespace {

// ---------------------------------------------------------------------------
// [1] Pieces
// ---------------------------------------------------------------------------

// Equal columns, nothing remembered: proportional widths learnt from the first frame a
// table appeared in could leave columns a few pixels wide for good.
constexpr ImGuiTableFlags kTableFlags =
    ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_RowBg | ImGuiTableFlags_NoSavedSettings;

void text_wrapped(const std::string& words) { inspector_text(words); }

long long as_ll(int64_t v) { return static_cast<long long>(v); }

void table_row(std::initializer_list<std::string> cells) {
    ImGui::TableNextRow();
    int column = 0;
    for (const std::string& cell : cells) {
        ImGui::TableSetColumnIndex(column++);
        ImGui::TextUnformatted(cell.c_str());
    }
}

// Significant digits of a table's number columns: three number columns at 4 digits
// ("-0.001654", "8.065e-22") leave the index column a few pixels in a 1024-px window's
// inspector; 3 digits keep the key's token readable and the last column whole there.
int table_digits() { return ImGui::GetContentRegionAvail().x < 22.0f * ImGui::GetFontSize() ? 3 : 4; }

// A table with these column headers; false when ImGui skips it (call EndTable only on true).
bool begin_table(const char* id, std::initializer_list<const char*> headers) {
    if (!ImGui::BeginTable(id, static_cast<int>(headers.size()), kTableFlags)) return false;
    // The first column (an index, often with its token) takes what is left; the number
    // columns fit their widest entry, so "-0.05526" is never cut in a narrow (1024 px) panel.
    bool first = true;
    for (const char* h : headers) {
        ImGui::TableSetupColumn(h, first ? ImGuiTableColumnFlags_WidthStretch : ImGuiTableColumnFlags_WidthFixed);
        first = false;
    }
    ImGui::TableHeadersRow();
    return true;
}

// The text colour of head `head`, readable on the window background.
void push_head_color(int head) {
    const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    ImGui::PushStyleColor(ImGuiCol_Text, pack_rgba(with_contrast(head_color(head), Rgb{bg.x, bg.y, bg.z}, 4.5f)));
}

// "8 terms; the 6 largest:" above a summarised table; nothing when every term is listed.
void terms_caption(const CellExplanation& e) {
    if (e.omitted_terms > 0)
        quiet_note(trf("inspector.projection.largest", {{"terms", as_ll(e.term_count)}, {"shown", e.terms.size()}}));
}

// "+ 94 more terms: 0.1234" below a summarised table, so the sum visibly closes.
void omitted_line(const CellExplanation& e) {
    if (e.omitted_terms > 0)
        quiet_note(trf("inspector.more_terms", {{"terms", as_ll(e.omitted_terms)},
                                                               {"sum", format_value(static_cast<float>(e.omitted_sum))}}));
}

std::string key_label(const Results& results, int64_t j) {
    if (j >= static_cast<int64_t>(results.key_tokens.size())) return std::to_string(j);
    const ScriptForms none;
    const ScriptForms& forms = results.trace ? results.trace->model.script_forms : none;
    return std::to_string(j) + " " + text::shown_token(forms, results.key_tokens[static_cast<size_t>(j)]);
}

// Vocabulary entry `id` of a model trace, quoted; the bare id when there is no such word.
std::string word_of(const Trace& trace, int64_t id) {
    const auto& words = trace.model.vocabulary;
    return id >= 0 && id < static_cast<int64_t>(words.size())
               ? "'" + text::shown_token(trace.model.script_forms, words[static_cast<size_t>(id)]) + "'"
               : std::to_string(id);
}

// A table of a dot product's terms: index, the two factors, their product. `head_width`
// > 0 colours each index by the head whose context it reads (W_o's terms).
void products_table(const char* id, const char* index_name, const char* a_name, const char* b_name,
                    const CellExplanation& e, int head_width, const Results* key_tokens) {
    terms_caption(e);
    const int digits = table_digits();
    if (!begin_table(id, {index_name, a_name, b_name, label("inspector.column.product")})) return;
    for (const Term& t : e.terms) {
        ImGui::TableNextRow();
        ImGui::TableSetColumnIndex(0);
        if (head_width > 0) push_head_color(static_cast<int>(t.k / head_width));
        ImGui::TextUnformatted((key_tokens ? key_label(*key_tokens, t.k) : std::to_string(t.k)).c_str());
        if (head_width > 0) ImGui::PopStyleColor();
        const std::string cells[] = {format_value(t.a_value, digits), format_value(t.b_value, digits),
                                     format_value(t.value, digits)};
        for (int column = 1; column < 4; ++column) {
            ImGui::TableSetColumnIndex(column);
            ImGui::TextUnformatted(cells[column - 1].c_str());
        }
    }
    ImGui::EndTable();
    omitted_line(e);
}

// The low-precision rounding every op of a --dtype forward ends with: nothing for float32,
// nor for rules that only move, keep or look up a number (no op, nothing rounded).
void dtype_line(const CellExplanation& e) {
    if (e.dtype == DType::Float32) return;
    switch (e.rule) {
        case CellRule::DotProduct:
        case CellRule::Scale:
        case CellRule::MaskAdded:
        case CellRule::MaskFilled:
        case CellRule::Softmax:
        case CellRule::DropoutKept:
        case CellRule::RopeAngle:
        case CellRule::Rotation:
        case CellRule::Mean: break;
        case CellRule::Given:
        case CellRule::Parameter:
        case CellRule::MaskKept:
        case CellRule::FullyMaskedRow:
        case CellRule::DropoutDropped:
        case CellRule::Move:
        case CellRule::ExtraKey:
        case CellRule::Repeat:
        case CellRule::Cached:
        case CellRule::Lookup:
        case CellRule::Add:
        case CellRule::Norm:
        case CellRule::Prediction:
        case CellRule::Argmax:
        case CellRule::PreviousLayer: return;
    }
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    text_wrapped(trf("inspector.dtype_rounding", {{"dtype", to_string(e.dtype)}}));
    ImGui::PopStyleColor();
}

void sum_lines(const CellExplanation& e) {
    text_wrapped(trf("inspector.sum", {{"value", format_value(static_cast<float>(e.sum))}}));
    if (e.sum_rounds_visibly && e.dtype == DType::Float32)
        quiet_note(trf("inspector.stored_rounding", {{"value", format_value(e.value)}}));
    if (e.sum_rounds_visibly && e.dtype != DType::Float32)
        quiet_note(trf("inspector.stored_dtype", {{"value", format_value(e.value)}, {"dtype", to_string(e.dtype)}}));
}

// ---------------------------------------------------------------------------
// [2] Attention rules
// ---------------------------------------------------------------------------

// Y[n, o] = sum_i X[n, i] W[o, i] + b[o].
void draw_projection(const Trace& trace, const CellExplanation& e) {
    if (e.terms.empty()) return;
    const CellAddress& w = e.terms.front().b;
    const char* x_name = step_name(e.terms.front().a.step);
    const int64_t n = e.terms.front().a.index[1], o = w.row;
    text_wrapped(trf(e.has_bias ? "inspector.projection.terms_bias" : "inspector.projection.terms",
                     {{"row", as_ll(n)}, {"input", x_name}, {"column", as_ll(o)}, {"weight", weight_symbol(w.weight)}}));
    const int head_width = e.head_subtotals.empty() ? 0 : std::max(1, trace.config.head_dim());
    products_table("##proj", "i", "x[n,i]", "W[o,i]", e, head_width, nullptr);
    // W_o reads the heads' concatenation: "W_o mixes the heads" as a sum of per-head parts.
    if (!e.head_subtotals.empty()) {
        text_wrapped(trf("inspector.projection.per_head", {{"terms", head_width}}));
        if (begin_table("##per_head", {label("inspector.column.head"), label("inspector.column.subtotal")})) {
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
    sum_lines(e);
}

// Where an input or weight number goes: the steps and how many of their cells read it.
void draw_flows(const CellExplanation& e) {
    for (const StepCells& flow : e.flows)
        text_wrapped(trf("inspector.flows.cells", {{"step", step_name(flow.step)}, {"cells", flow.cells.size()}}));
}

void draw_scale(const Trace& trace, const CellExplanation& e, int64_t i) {
    const std::string score = format_value(e.operand_value), factor = format_value(e.factor), value = format_value(e.value);
    switch (e.scale_kind) {
        case ScaleKind::Head:
            text_wrapped(trf("inspector.scale.head", {{"score", score}, {"head_dim", trace.config.head_dim()}, {"factor", factor}, {"value", value}}));
            break;
        case ScaleKind::Hidden:
            text_wrapped(trf("inspector.scale.hidden", {{"score", score}, {"hidden", trace.config.E()}, {"factor", factor}, {"value", value},
                                                        {"head_dim", trace.config.head_dim()}}));
            break;
        case ScaleKind::None: text_wrapped(trf("inspector.scale.none", {{"score", score}, {"factor", factor}, {"value", value}})); break;
        case ScaleKind::Value: text_wrapped(trf("inspector.scale.value", {{"score", score}, {"factor", factor}, {"value", value}})); break;
    }
    if (trace.config.mask_before_scale && trace.find(e.operand.step) && trace.find(e.operand.step)->kind == StepKind::Mask)
        text_wrapped(tr("inspector.scale.after_mask"));
    if (e.scale_kind == ScaleKind::Head && e.extra_key == ExtraKeyKind::None) {
        const int dh = trace.config.head_dim();
        const std::string effect = text::describe_scaling_effect(
            scaling_effect(trace, static_cast<int>(e.cell.index[0]), static_cast<int>(e.cell.index[1]), static_cast<int>(i)), dh);
        if (!effect.empty()) text_wrapped(effect);
    }
}

// `by` splits the boolean mask file's reason into its parts when cells were painted into it.
std::string mask_reason_text(const CellExplanation& e, MaskReason reason, const MaskedBy& by = {}) {
    switch (reason) {
        case MaskReason::Causal: return tr("inspector.mask.reason.causal");
        case MaskReason::Padding: return trf("inspector.mask.reason.padding", {{"valid", e.valid_length}});
        case MaskReason::LeftPadding: return trf("inspector.mask.reason.left_padding", {{"valid", e.valid_length}});
        case MaskReason::Window: return trf("inspector.mask.reason.window", {{"window", e.window}});
        case MaskReason::FileBoolean:
            if (by.painted) return tr(by.file ? "inspector.mask.reason.painted_and_file" : "inspector.mask.reason.painted");
            return tr("inspector.mask.reason.file_boolean");
        case MaskReason::FileFloat: return tr("inspector.mask.reason.file_float");
        case MaskReason::Custom: return tr("inspector.mask.reason.custom");
        case MaskReason::None: break;
    }
    return "";
}

const char* extra_key_name(ExtraKeyKind kind) {
    return kind == ExtraKeyKind::BiasKv ? tr("inspector.extra.name.bias_kv") : tr("inspector.extra.name.zero_attn");
}

// `by`: which of a painted mask's parts hide the cell (both false: the mask has no painted part).
void draw_mask(const CellExplanation& e, int64_t i, int64_t j, const MaskedBy& by) {
    switch (e.rule) {
        case CellRule::MaskKept:
            if (e.extra_key != ExtraKeyKind::None)
                text_wrapped(trf("inspector.mask.extra_key", {{"key", as_ll(j)}, {"which", extra_key_name(e.extra_key)}}));
            else
                text_wrapped(tr("inspector.mask.allowed"));
            break;
        case CellRule::MaskAdded:
            text_wrapped(trf("inspector.mask.added", {{"score", format_value(e.operand_value)}, {"addend", format_value(e.mask_addend)},
                                                      {"value", format_value(e.value)}}));
            if (!e.mask_reasons.empty()) text_wrapped(mask_reason_text(e, e.mask_reasons.front()));
            break;
        case CellRule::MaskFilled: {
            std::vector<std::string> reasons;
            for (MaskReason r : e.mask_reasons) reasons.push_back(mask_reason_text(e, r, by));
            const std::string why = text::join_clauses(reasons);
            const bool infinite = std::isinf(e.mask_fill);
            text_wrapped(trf(infinite ? "inspector.mask.filled_inf" : "inspector.mask.filled_finite",
                             {{"key", as_ll(j)}, {"query", as_ll(i)}, {"mask", why}, {"fill", format_value(e.mask_fill)}}));
            break;
        }
        default: break;
    }
}

void draw_softmax(const Results& results, const CellExplanation& e, int64_t i, int64_t j) {
    text_wrapped(trf("inspector.softmax.row", {{"row", as_ll(i)}, {"max", format_value(e.row_max)}, {"sum", format_value(e.exp_sum)}}));
    if (e.row_fully_masked) text_wrapped(trf("inspector.softmax.uniform", {{"max", format_value(e.row_max)}, {"keys", as_ll(e.term_count)}}));
    terms_caption(e);
    const int digits = table_digits();
    if (begin_table("##softmax", {label("inspector.column.key_j"), label("inspector.column.score"), label("inspector.column.exp"),
                                  label("inspector.column.weight")})) {
        for (const Term& t : e.terms)
            table_row({key_label(results, t.k) + (t.k == j ? " <" : ""), format_value(t.a_value, digits), format_value(t.value, digits),
                       format_value(t.output, digits)});
        ImGui::EndTable();
    }
    omitted_line(e);
    text_wrapped(trf("inspector.softmax.cell", {{"score", format_value(e.operand_value)}, {"max", format_value(e.row_max)},
                                                {"sum", format_value(e.exp_sum)}, {"value", format_value(e.value)}}));
}

// ---------------------------------------------------------------------------
// [3] Option rules
// ---------------------------------------------------------------------------

void draw_extra_key(const CellExplanation& e) {
    if (e.extra_key == ExtraKeyKind::BiasKv) {
        const bool key = step_info(e.cell.step).side == StepSide::Key;
        text_wrapped(trf("inspector.extra.bias_kv", {{"parameter", key ? "bias_k" : "bias_v"}, {"feature", as_ll(e.cell.index[2])},
                                                     {"value", format_value(e.operand_value)}}));
    } else {
        text_wrapped(tr("inspector.extra.zero_attn"));
    }
}

void draw_rope_angle(const Trace& trace, const CellExplanation& e) {
    const AttentionConfig& c = trace.config;
    // 10000 rather than "1e+04": a whole base is written whole.
    const std::string base = c.rope_base == std::floor(c.rope_base) && c.rope_base < 1e12 ? text::fixed(c.rope_base, 0)
                                                                                          : format_value(static_cast<float>(c.rope_base));
    text_wrapped(trf("inspector.rope.angle", {{"position", as_ll(e.rope.position)}, {"offset", c.position_offset}, {"row", as_ll(e.cell.index[0])},
                                              {"i", as_ll(e.rope.frequency)}, {"base", base},
                                              {"head_dim", c.head_dim()}, {"inv_freq", format_value(e.rope.inv_freq)},
                                              {"angle", format_value(e.rope.angle)}}));
    text_wrapped(trf(e.rope.sine ? "inspector.rope.sin" : "inspector.rope.cos", {{"angle", format_value(e.rope.angle)}, {"value", format_value(e.value)}}));
    text_wrapped(trf(c.rope_style == RopeStyle::Half ? "inspector.rope.style.half" : "inspector.rope.style.interleaved", {{"half", c.head_dim() / 2}}));
}

void draw_rotation(const Trace& trace, const CellExplanation& e) {
    if (e.terms.size() != 2) return;
    const Term& along = e.terms[0];
    const Term& across = e.terms[1];
    const int64_t n = e.cell.index[2], column = e.cell.index[3];
    text_wrapped(trf("inspector.rope.rotation", {{"column", as_ll(column)}, {"partner", as_ll(e.rope.partner)}, {"position", as_ll(e.rope.position)},
                                                 {"angle", format_value(e.rope.angle)}}));
    text_wrapped(trf("inspector.rope.along", {{"column", as_ll(column)}, {"row", as_ll(n)}, {"x", format_value(along.a_value)},
                                              {"cos", format_value(along.b_value)}, {"product", format_value(along.value)}}));
    text_wrapped(trf(e.rope.sign < 0 ? "inspector.rope.across_minus" : "inspector.rope.across_plus",
                     {{"partner", as_ll(e.rope.partner)}, {"row", as_ll(n)}, {"column", as_ll(column)}, {"x", format_value(across.a_value)},
                      {"sin", format_value(across.b_value)}, {"product", format_value(across.value)}}));
    text_wrapped(trf("inspector.sum", {{"value", format_value(static_cast<float>(e.sum))}}));
    text_wrapped(trf(trace.config.rope_style == RopeStyle::Half ? "inspector.rope.style.half" : "inspector.rope.style.interleaved",
                     {{"half", trace.config.head_dim() / 2}}));
}

void draw_repeat(const CellExplanation& e) {
    const int first = e.kv_head * e.group_size;
    text_wrapped(trf("inspector.repeat", {{"head", as_ll(e.cell.index[1])}, {"kv_head", e.kv_head}, {"first", first},
                                          {"last", first + e.group_size - 1}, {"group", e.group_size},
                                          {"source", step_name(e.operand.step) + shape_text(e.operand.index)}}));
}

// A cached key or value row: computed when its position came, not by this step.
void draw_cached(const CellExplanation& e) {
    text_wrapped(trf("inspector.cached", {{"position", as_ll(e.cached_position)}, {"first", as_ll(e.block_first)}}));
}

void draw_mean(const CellExplanation& e) {
    text_wrapped(trf("inspector.mean", {{"heads", e.divisor}, {"row", as_ll(e.cell.index[1])}, {"key", as_ll(e.cell.index[2])}}));
    terms_caption(e);
    if (begin_table("##mean", {label("inspector.column.head"), label("inspector.column.weight")})) {
        for (const Term& t : e.terms) {
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            push_head_color(static_cast<int>(t.k));
            ImGui::TextUnformatted(trf("canvas.head", {{"head", as_ll(t.k)}}).c_str());
            ImGui::PopStyleColor();
            ImGui::TableSetColumnIndex(1);
            ImGui::TextUnformatted(format_value(t.a_value).c_str());
        }
        ImGui::EndTable();
    }
    omitted_line(e);
    text_wrapped(trf("inspector.mean.result", {{"sum", format_value(static_cast<float>(e.sum))}, {"heads", e.divisor}, {"value", format_value(e.value)}}));
}

// ---------------------------------------------------------------------------
// [4] Model rules
// ---------------------------------------------------------------------------

void draw_lookup(const Trace& trace, const CellExplanation& e) {
    const int64_t t = e.cell.index[1];
    if (e.lookup.table == LookupTable::Token)
        text_wrapped(trf("inspector.lookup.token", {{"position", as_ll(t)}, {"word", word_of(trace, e.lookup.row)}, {"id", as_ll(e.lookup.row)},
                                                    {"rows", as_ll(e.lookup.rows)}, {"column", as_ll(e.lookup.column)}}));
    else
        text_wrapped(trf("inspector.lookup.position", {{"position", as_ll(e.lookup.row)}, {"rows", as_ll(e.lookup.rows)},
                                                       {"column", as_ll(e.lookup.column)}}));
}

void draw_add(const CellExplanation& e) {
    text_wrapped(trf("inspector.add", {{"a", format_value(e.operand_value)}, {"a_step", step_name(e.operand.step)},
                                       {"b", format_value(e.operand2_value)}, {"b_step", step_name(e.operand2.step)},
                                       {"value", format_value(e.value)}}));
    if (step_info(e.cell.step).residual()) text_wrapped(tr("inspector.add.residual"));
}

// RMSNorm: the row divided by its root mean square, scaled by gamma; no mean, no beta.
void draw_rms_norm(const Trace& trace, const CellExplanation& e) {
    const Tensor& source = trace.find(e.operand.step)->tensor;
    const std::string mean_square = format_value(static_cast<float>(e.norm.variance));
    text_wrapped(trf("inspector.norm.rms.stats", {{"row", as_ll(e.cell.index[1])}, {"source", step_name(e.operand.step)},
                                                  {"count", as_ll(source.dim(2))}, {"mean_square", mean_square}, {"eps", format_value(e.norm.eps)}}));
    text_wrapped(trf("inspector.norm.rms.value", {{"x", format_value(e.operand_value)}, {"mean_square", mean_square}, {"eps", format_value(e.norm.eps)},
                                                  {"normalized", format_value(static_cast<float>(e.norm.normalized))}}));
    text_wrapped(trf("inspector.norm.rms.affine", {{"normalized", format_value(static_cast<float>(e.norm.normalized))},
                                                   {"gamma", format_value(e.norm.gamma)}, {"value", format_value(e.value)}}));
}

void draw_norm(const Trace& trace, const CellExplanation& e) {
    if (trace.model.norm == NormKind::RmsNorm) return draw_rms_norm(trace, e);
    const Tensor& source = trace.find(e.operand.step)->tensor;
    text_wrapped(trf("inspector.norm.stats", {{"row", as_ll(e.cell.index[1])}, {"source", step_name(e.operand.step)}, {"count", as_ll(source.dim(2))},
                                              {"mean", format_value(static_cast<float>(e.norm.mean))},
                                              {"variance", format_value(static_cast<float>(e.norm.variance))}, {"eps", format_value(e.norm.eps)}}));
    text_wrapped(trf("inspector.norm.value", {{"x", format_value(e.operand_value)}, {"mean", format_value(static_cast<float>(e.norm.mean))},
                                              {"variance", format_value(static_cast<float>(e.norm.variance))}, {"eps", format_value(e.norm.eps)},
                                              {"normalized", format_value(static_cast<float>(e.norm.normalized))}}));
    text_wrapped(trf("inspector.norm.affine", {{"normalized", format_value(static_cast<float>(e.norm.normalized))}, {"gamma", format_value(e.norm.gamma)},
                                               {"beta", format_value(e.norm.beta)}, {"value", format_value(e.value)}}));
}

// The logits row as a table: word, logit, and (next-word probabilities) exp and probability.
void logits_table(const Trace& trace, const CellExplanation& e, bool probabilities) {
    terms_caption(e);
    const bool open = probabilities ? begin_table("##logits", {label("inspector.column.word"), label("inspector.column.logit"),
                                                                label("inspector.column.exp_logit"), label("inspector.column.probability")})
                                    : begin_table("##logits", {label("inspector.column.word"), label("inspector.column.logit")});
    if (!open) return;
    for (const Term& t : e.terms) {
        if (probabilities) table_row({word_of(trace, t.k), format_value(t.a_value), format_value(t.value), format_value(t.output)});
        else table_row({word_of(trace, t.k), format_value(t.a_value)});
    }
    ImGui::EndTable();
    if (probabilities) omitted_line(e);
}

void draw_prediction(const Trace& trace, const CellExplanation& e) {
    const int64_t t = e.cell.index[1];
    // "next word after position 3" / "next character after position 3", as the model reads.
    const char* row_key = text::token_unit_key(trace.model.token_unit, "inspector.prediction.row", "inspector.prediction.character_row");
    text_wrapped(trf(row_key, {{"row", as_ll(t)}, {"later", e.later_layers}, {"norm", text::norm_name(trace.model.norm)}, {"max", format_value(e.row_max)},
                                                  {"sum", format_value(e.exp_sum)}}));
    logits_table(trace, e, true);
    text_wrapped(trf("inspector.prediction.cell", {{"word", word_of(trace, e.cell.index[2])}, {"logit", format_value(e.operand_value)},
                                                   {"max", format_value(e.row_max)}, {"sum", format_value(e.exp_sum)},
                                                   {"value", format_value(e.value)}}));
}

void draw_argmax(const Trace& trace, const CellExplanation& e) {
    text_wrapped(trf("inspector.argmax", {{"row", as_ll(e.cell.index[1])}, {"later", e.later_layers}, {"norm", text::norm_name(trace.model.norm)},
                                          {"word", word_of(trace, static_cast<int64_t>(e.value))}, {"logit", format_value(e.operand_value)}}));
    logits_table(trace, e, false);
}

void draw_previous_layer(const CellExplanation& e) {
    if (e.previous_has_mlp)
        text_wrapped(trf("inspector.previous_layer.mlp", {{"layer", e.previous_layer}, {"attention", format_value(e.operand_value)},
                                                          {"mlp", format_value(e.operand2_value)}, {"value", format_value(e.value)}}));
    else
        text_wrapped(trf("inspector.previous_layer", {{"layer", e.previous_layer}, {"attention", format_value(e.operand_value)}}));
    text_wrapped(tr("inspector.flows.into"));
    draw_flows(e);
}

}  // namespace

// ---------------------------------------------------------------------------
// [5] The dispatch
// ---------------------------------------------------------------------------

void draw_cell_explanation(const Results& results, const Step* step, const CellExplanation& e, const MaskOrigins& origins) {
    const Trace& trace = *results.trace;
    const int64_t i = e.cell.index.size() > 2 ? e.cell.index[2] : 0;  // query row of a (B, H, L, *) map
    const int64_t j = e.cell.index.size() > 3 ? e.cell.index[3] : 0;  // key or feature column
    switch (e.rule) {
        case CellRule::Given:
            if (step && step_info(step->id).token_ids())
                text_wrapped(trf("inspector.tokens", {{"id", format_value(e.value)}, {"word", word_of(trace, static_cast<int64_t>(e.value))}}));
            else
                text_wrapped(tr("inspector.input"));
            text_wrapped(tr("inspector.flows.into"));
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
                    text_wrapped(trf("inspector.scores.dot", {{"query", as_ll(i)}, {"key", as_ll(j)}}));
                    if (e.extra_key != ExtraKeyKind::None)
                        text_wrapped(trf("inspector.scores.extra_key", {{"key", as_ll(j)}, {"which", extra_key_name(e.extra_key)}}));
                    products_table("##dot", "d", "q[i,d]", "k[j,d]", e, 0, nullptr);
                    sum_lines(e);
                    break;
                case StepKind::WeightedSum:
                    text_wrapped(trf("inspector.weighted_sum", {{"row", as_ll(i)}, {"d", as_ll(j)}}));
                    products_table("##wsum", label("inspector.column.key_j"), label("inspector.column.weight"), "v[j,d]", e, 0, &results);
                    sum_lines(e);
                    break;
                default: draw_projection(trace, e); break;
            }
            break;
        case CellRule::Scale: draw_scale(trace, e, i); break;
        case CellRule::MaskKept:
        case CellRule::MaskAdded:
        case CellRule::MaskFilled: {
            const int64_t b = e.cell.index.size() > 3 ? e.cell.index[0] : 0, h = e.cell.index.size() > 3 ? e.cell.index[1] : 0;
            draw_mask(e, i, j, masked_by(origins, trace.config, b, h, i, j));
            break;
        }
        case CellRule::FullyMaskedRow:
            text_wrapped(text::fully_masked_row_note(trace, static_cast<int>(e.cell.index[0]), static_cast<int>(e.cell.index[1]), static_cast<int>(i)));
            break;
        case CellRule::Softmax: draw_softmax(results, e, i, j); break;
        case CellRule::DropoutKept:
            text_wrapped(trf("inspector.dropout.kept", {{"draw", text::fixed(e.dropout_draw, 3)}, {"weight", format_value(e.operand_value)},
                                                        {"p", text::fixed(e.dropout_p, 2)}, {"value", format_value(e.value)}}));
            break;
        case CellRule::DropoutDropped:
            text_wrapped(trf("inspector.dropout.dropped", {{"draw", text::fixed(e.dropout_draw, 3)}, {"p", text::fixed(e.dropout_p, 2)},
                                                           {"weight", format_value(e.operand_value)}}));
            break;
        case CellRule::Move:
            text_wrapped(trf(e.is_view ? "inspector.same_number.view" : "inspector.same_number.copy",
                             {{"source", step_name(e.operand.step) + shape_text(e.operand.index)}}));
            if (!e.flows.empty()) {
                text_wrapped(tr("inspector.flows.into"));
                draw_flows(e);
            }
            break;
        case CellRule::ExtraKey: draw_extra_key(e); break;
        case CellRule::RopeAngle: draw_rope_angle(trace, e); break;
        case CellRule::Rotation: draw_rotation(trace, e); break;
        case CellRule::Repeat: draw_repeat(e); break;
        case CellRule::Cached: draw_cached(e); break;
        case CellRule::Mean: draw_mean(e); break;
        case CellRule::Lookup: draw_lookup(trace, e); break;
        case CellRule::Add: draw_add(e); break;
        case CellRule::Norm: draw_norm(trace, e); break;
        case CellRule::Prediction: draw_prediction(trace, e); break;
        case CellRule::Argmax: draw_argmax(trace, e); break;
        case CellRule::PreviousLayer: draw_previous_layer(e); break;
    }
    dtype_line(e);
}

}  // namespace attn::gui
