#include "app/gui/views/view_inspector.h"

#include <imgui.h>

#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cmath>
#include <map>
#include <string>

#include "app/gui/format.h"
#include "app/gui/projection.h"
#include "core/step_text.h"

namespace attn::gui {
namespace {

using Named = std::map<DimRole, int64_t>;  // index of each dimension, by role

// Like ImGui::TextWrapped, but lines break only at spaces: ImGui also breaks after a
// '.', which split "0.1756" into "0." and "1756".
void text_wrapped(const char* format, ...) IM_FMTARGS(1);
void text_wrapped(const char* format, ...) {
    char buffer[2048];
    va_list args;
    va_start(args, format);
    std::vsnprintf(buffer, sizeof buffer, format, args);
    va_end(args);
    const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4.0f);
    for (const std::string& line : wrap_at_spaces(buffer, width, [](const std::string& t) { return ImGui::CalcTextSize(t.c_str()).x; }))
        ImGui::TextUnformatted(line.c_str());
}

// Equal columns, nothing remembered: proportional widths learnt from the first frame a
// table appeared in could leave columns a few pixels wide for good.
constexpr ImGuiTableFlags kTableFlags =
    ImGuiTableFlags_SizingStretchSame | ImGuiTableFlags_RowBg | ImGuiTableFlags_NoSavedSettings;

// Index of every dimension by role (missing roles read index 0).
Named name_index(const Tensor& t, const std::vector<int64_t>& idx) {
    Named out;
    for (int d = 0; d < t.rank(); ++d) out[t.dim_roles()[static_cast<size_t>(d)]] = idx[static_cast<size_t>(d)];
    return out;
}

float value_at(const Tensor& t, const Named& names) {
    std::vector<int64_t> idx(static_cast<size_t>(t.rank()), 0);
    for (int d = 0; d < t.rank(); ++d) {
        const auto it = names.find(t.dim_roles()[static_cast<size_t>(d)]);
        if (it != names.end()) idx[static_cast<size_t>(d)] = std::min<int64_t>(it->second, t.dim(d) - 1);
    }
    return t.at(idx);
}

std::string describe_index(const AppState& state, const Tensor& t, const std::vector<int64_t>& idx) {
    std::string s = "[";
    for (int d = 0; d < t.rank(); ++d) {
        const std::string& name = t.dim_names()[static_cast<size_t>(d)];
        const int64_t i = idx[static_cast<size_t>(d)];
        s += (d ? ", " : "") + name + "=" + std::to_string(i);
        const DimRole role = t.dim_roles()[static_cast<size_t>(d)];
        const auto& tokens = role == DimRole::QueryPos ? state.query_tokens
                             : role == DimRole::KeyPos ? state.key_tokens
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

// Y[n, o] = sum_i X[n, i] W[o, i] + b[o]: every term when the width is small, else the
// largest ones; all read from the trace's tensors and weights.
void explain_projection(const AppState& state, const CellRef& ref, float value) {
    const Trace& trace = *state.trace;
    const ProjectionWeights pw = projection_weights(trace, ref.step);
    const StepDisplay& sd = state.model->steps[static_cast<size_t>(ref.step)];
    if (!pw.valid()) {
        text_wrapped("one row of the input times one row of the weight matrix, plus the bias.");
        return;
    }
    const Panel& panel = sd.panels[static_cast<size_t>(ref.panel)];
    const int o = panel_first_feature(sd, panel, std::max(1, trace.config.head_dim())) + ref.col;
    const DotTerms d = projection_terms(trace, pw, state.model->batch_item, ref.row, o);
    if (d.x.empty()) return;
    const std::string x_name = trace.steps[static_cast<size_t>(pw.source_step)].name();
    text_wrapped("row %d of %s times column %d of %s^T (row %d of %s)%s:", ref.row, x_name.c_str(), o,
                       pw.w_name.c_str(), o, pw.w_name.c_str(), d.has_bias ? ", plus the bias" : "");
    // Every term when they fit in a short table; otherwise the ones that matter most.
    std::vector<int> order(d.x.size());
    for (size_t i = 0; i < order.size(); ++i) order[i] = static_cast<int>(i);
    const bool all = order.size() <= 16;
    if (!all) {
        const auto product = [&](int i) { return std::fabs(d.x[static_cast<size_t>(i)] * d.w[static_cast<size_t>(i)]); };
        std::partial_sort(order.begin(), order.begin() + 6, order.end(), [&](int a, int b) { return product(a) > product(b); });
        order.resize(6);
        ImGui::TextDisabled("%zu terms; the 6 largest:", d.x.size());
    }
    if (ImGui::BeginTable("##proj", 4, kTableFlags)) {
        ImGui::TableSetupColumn("i");
        ImGui::TableSetupColumn("x[n,i]");
        ImGui::TableSetupColumn("W[o,i]");
        ImGui::TableSetupColumn("product");
        ImGui::TableHeadersRow();
        // W_o's terms: the index in the colour of the head whose context it reads.
        const int term_head_dim = pw.w_name == "W_o" && trace.config.H() > 1 ? std::max(1, trace.config.head_dim()) : 0;
        const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
        for (int i : order) {
            const float a = d.x[static_cast<size_t>(i)], b = d.w[static_cast<size_t>(i)];
            if (term_head_dim > 0)
                ImGui::PushStyleColor(ImGuiCol_Text, pack_rgba(with_contrast(head_color(i / term_head_dim), Rgb{bg.x, bg.y, bg.z}, 4.5f)));
            ImGui::TableNextRow();
            ImGui::TableSetColumnIndex(0);
            ImGui::TextUnformatted(std::to_string(i).c_str());
            if (term_head_dim > 0) ImGui::PopStyleColor();
            const std::string cells[] = {format_value(a), format_value(b), format_value(a * b)};
            for (int column = 1; column < 4; ++column) {
                ImGui::TableSetColumnIndex(column);
                ImGui::TextUnformatted(cells[column - 1].c_str());
            }
        }
        ImGui::EndTable();
    }
    // W_o reads the heads' concatenation: group its terms by the head they come from, so
    // "W_o mixes the heads" is a sum of per-head parts on screen.
    const int heads = trace.config.H(), dh = std::max(1, trace.config.head_dim());
    if (pw.w_name == "W_o" && heads > 1 && static_cast<int>(d.x.size()) == heads * dh) {
        text_wrapped("per head (each the sum of the %d terms that read that head's context):", dh);
        if (ImGui::BeginTable("##per_head", 2, kTableFlags)) {
            ImGui::TableSetupColumn("head");
            ImGui::TableSetupColumn("subtotal");
            ImGui::TableHeadersRow();
            for (int h = 0; h < heads; ++h) {
                double part = 0.0;
                for (int i = h * dh; i < (h + 1) * dh; ++i) part += static_cast<double>(d.x[static_cast<size_t>(i)]) * d.w[static_cast<size_t>(i)];
                ImGui::TableNextRow();
                ImGui::TableSetColumnIndex(0);
                const ImVec4 bg = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
                ImGui::PushStyleColor(ImGuiCol_Text, pack_rgba(with_contrast(head_color(h), Rgb{bg.x, bg.y, bg.z}, 4.5f)));
                ImGui::Text("head %d", h);
                ImGui::PopStyleColor();
                ImGui::TableSetColumnIndex(1);
                ImGui::TextUnformatted(format_value(static_cast<float>(part)).c_str());
            }
            ImGui::EndTable();
        }
    }
    if (d.has_bias) text_wrapped("+ %s[%d] = %s", pw.b_name.c_str(), o, format_value(d.bias).c_str());
    text_wrapped("sum = %s", format_value(static_cast<float>(d.sum)).c_str());
    if (std::fabs(d.sum - value) > 1e-4 * (1.0 + std::fabs(d.sum))) {
        ImGui::TextDisabled("(stored %s: float32 rounding)", format_value(value).c_str());
    }
}

void explain_origin(const AppState& state, const CellRef& ref, const Step& step, const Named& at, float value) {
    const Trace& trace = *state.trace;
    const Step* s0 = step.has_primary_source() ? trace.find(step.primary_source()) : nullptr;
    const Step* s1 = step.sources.size() > 1 ? trace.find(step.sources[1]) : nullptr;
    const int64_t i = at.count(DimRole::QueryPos) ? at.at(DimRole::QueryPos) : 0;
    const int64_t j = at.count(DimRole::KeyPos) ? at.at(DimRole::KeyPos) : 0;
    const int dh = trace.config.head_dim();
    switch (step.kind) {
        case StepKind::RopeTable:  // issue 9 steps: their cell explanations come with core/explain_cell
        case StepKind::Rotation:
        case StepKind::RepeatKv:
        case StepKind::HeadMean:
            break;
        case StepKind::Scores: {
            if (!s0 || !s1) break;
            text_wrapped("dot product of query row %lld and key row %lld of this head:", static_cast<long long>(i),
                               static_cast<long long>(j));
            Named q = at, k = at;
            k[DimRole::KeyPos] = j;
            float sum = 0.0f;
            const bool list = dh <= 16 && ImGui::BeginTable("##dot", 4, kTableFlags);
            if (list) {
                ImGui::TableSetupColumn("d");
                ImGui::TableSetupColumn("q[i,d]");
                ImGui::TableSetupColumn("k[j,d]");
                ImGui::TableSetupColumn("product");
                ImGui::TableHeadersRow();
            }
            for (int d = 0; d < dh; ++d) {
                q[DimRole::HeadDim] = d;
                k[DimRole::HeadDim] = d;
                const float a = value_at(s0->tensor, q), b = value_at(s1->tensor, k);
                sum += a * b;
                if (list) table_row({std::to_string(d), format_value(a), format_value(b), format_value(a * b)});
            }
            if (list) ImGui::EndTable();
            text_wrapped("sum = %s", format_value(sum).c_str());
            break;
        }
        case StepKind::Scale: {
            if (s0) text_wrapped("%s / sqrt(%d) = %s", format_value(value_at(s0->tensor, at)).c_str(), dh, format_value(value).c_str());
            const int head = at.count(DimRole::Head) ? static_cast<int>(at.at(DimRole::Head)) : 0;
            const std::string effect = describe_scaling_effect(scaling_effect(trace, state.model->batch_item, head, static_cast<int>(i)), dh);
            if (!effect.empty()) text_wrapped("%s", effect.c_str());
            break;
        }
        case StepKind::Mask:
            if (std::isinf(value)) {
                text_wrapped("masked: key %lld is not allowed for query %lld (%s), so the score becomes -inf and "
                                   "its weight after the softmax is exactly 0.",
                                   static_cast<long long>(j), static_cast<long long>(i), to_string(trace.config.mask));
            } else {
                text_wrapped("allowed: the score passes through unchanged.");
            }
            break;
        case StepKind::Softmax: {
            if (!s0) break;
            const int head = at.count(DimRole::Head) ? static_cast<int>(at.at(DimRole::Head)) : 0;
            const std::string note = fully_masked_row_note(trace, state.model->batch_item, head, static_cast<int>(i));
            if (!note.empty()) {
                text_wrapped("%s", note.c_str());
                break;
            }
            const int64_t S = trace.config.S();
            Named r = at;
            float mx = -INFINITY;
            for (int64_t c = 0; c < S; ++c) {
                r[DimRole::KeyPos] = c;
                mx = std::max(mx, value_at(s0->tensor, r));
            }
            float sum = 0.0f;
            for (int64_t c = 0; c < S; ++c) {
                r[DimRole::KeyPos] = c;
                const float x = value_at(s0->tensor, r);
                sum += std::isinf(x) ? 0.0f : std::exp(x - mx);
            }
            text_wrapped("row %lld: subtract the row max %s, exponentiate, divide by the row sum %s.",
                               static_cast<long long>(i), format_value(mx).c_str(), format_value(sum).c_str());
            if (S <= 16 && ImGui::BeginTable("##softmax", 4, kTableFlags)) {
                ImGui::TableSetupColumn("key j");
                ImGui::TableSetupColumn("score");
                ImGui::TableSetupColumn("exp(score-max)");
                ImGui::TableSetupColumn("weight");
                ImGui::TableHeadersRow();
                for (int64_t c = 0; c < S; ++c) {
                    r[DimRole::KeyPos] = c;
                    const float x = value_at(s0->tensor, r);
                    const float e = std::isinf(x) ? 0.0f : std::exp(x - mx);
                    table_row({std::to_string(c) + (c == j ? " <" : ""), format_value(x), format_value(e),
                               format_value(sum > 0.0f ? e / sum : 0.0f)});
                }
                ImGui::EndTable();
            }
            r[DimRole::KeyPos] = j;
            text_wrapped("this cell: exp(%s - %s) / %s = %s", format_value(value_at(s0->tensor, r)).c_str(),
                        format_value(mx).c_str(), format_value(sum).c_str(), format_value(value).c_str());
            break;
        }
        case StepKind::Dropout:
            if (s0) {
                const float w = value_at(s0->tensor, at);
                if (value == 0.0f && w != 0.0f) text_wrapped("dropped (weight %s set to 0)", format_value(w).c_str());
                else text_wrapped("kept: %s / (1 - %.2f) = %s", format_value(w).c_str(), trace.config.dropout, format_value(value).c_str());
            }
            break;
        case StepKind::WeightedSum: {
            if (!s0 || !s1) break;
            const int64_t d = at.count(DimRole::HeadDim) ? at.at(DimRole::HeadDim) : 0;
            const int64_t S = trace.config.S();
            text_wrapped("sum over keys j of weight[%lld, j] * v[j, %lld]:", static_cast<long long>(i), static_cast<long long>(d));
            const bool list = S <= 16 && ImGui::BeginTable("##wsum", 4, kTableFlags);
            if (list) {
                ImGui::TableSetupColumn("key j");
                ImGui::TableSetupColumn("weight");
                ImGui::TableSetupColumn("v[j,d]");
                ImGui::TableSetupColumn("product");
                ImGui::TableHeadersRow();
                for (int64_t c = 0; c < S; ++c) {
                    Named w = at, v = at;
                    w[DimRole::KeyPos] = c;
                    v[DimRole::KeyPos] = c;
                    const float a = value_at(s0->tensor, w), b = value_at(s1->tensor, v);
                    const std::string key = c < static_cast<int64_t>(state.key_tokens.size())
                                                ? std::to_string(c) + " " + state.key_tokens[static_cast<size_t>(c)]
                                                : std::to_string(c);
                    table_row({key, format_value(a), format_value(b), format_value(a * b)});
                }
                ImGui::EndTable();
            }
            text_wrapped("sum = %s", format_value(value).c_str());
            break;
        }
        case StepKind::Projection:
            explain_projection(state, ref, value);
            break;
        case StepKind::View:
        case StepKind::Transpose:
        case StepKind::Slice:
        case StepKind::Concat:
            if (s0) text_wrapped("the same number as in %s: %s", s0->name(),
                                       step.is_view ? "this step only changed how the buffer is read." : "copied into a new buffer.");
            break;
        case StepKind::Input:
            text_wrapped("given data (a token embedding or a loaded file).");
            break;
        case StepKind::Lookup:  // a trained model's steps (core/model/): the step text explains them
        case StepKind::Add:
        case StepKind::Norm:
        case StepKind::Prediction:
            text_wrapped("see the step's explanation for how the model computed it.");
            break;
    }
}

}  // namespace

void draw_inspector(const AppState& state) {
    const CellRef ref = state.canvas.hovered.valid() ? state.canvas.hovered : state.canvas.pinned;
    if (!state.trace || !state.model || !ref.valid() || ref.step >= static_cast<int>(state.model->steps.size())) {
        ImGui::TextDisabled("Hover a cell to inspect it; click to pin it.");
        return;
    }
    const Step& step = state.trace->steps[static_cast<size_t>(ref.step)];
    const StepDisplay& sd = state.model->steps[static_cast<size_t>(ref.step)];
    if (ref.panel >= static_cast<int>(sd.panels.size())) return;
    const Panel& panel = sd.panels[static_cast<size_t>(ref.panel)];
    if (ref.row >= panel.rows || ref.col >= panel.cols) return;
    const std::vector<int64_t> idx = cell_index(panel, ref.row, ref.col);
    const float value = cell_value(step.tensor, panel, ref.row, ref.col);
    if (!state.canvas.hovered.valid() && ref.step != state.playback.step()) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
        text_wrapped("pinned in step %d; hover or click a cell to inspect this step", ref.step + 1);
        ImGui::PopStyleColor();
    }
    text_wrapped("%s%s", step.name(), describe_index(state, step.tensor, idx).c_str());
    text_wrapped("= %s", format_value(value).c_str());
    int64_t pos = step.tensor.offset();
    for (size_t d = 0; d < idx.size(); ++d) pos += idx[d] * step.tensor.strides()[d];
    ImGui::TextDisabled("storage position %lld of buffer #%d", static_cast<long long>(pos), sd.strip.buffer_id);
    ImGui::Separator();
    explain_origin(state, ref, step, name_index(step.tensor, idx), value);
}

}  // namespace attn::gui
