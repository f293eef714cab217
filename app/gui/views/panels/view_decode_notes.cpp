#include "app/gui/views/panels/view_decode_notes.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>
#include <utility>

#include "app/gui/display/colormap.h"
#include "app/gui/display/format.h"
#include "app/gui/views/panels/view_token_strip.h"
#include "app/gui/kit/cjk_wrap.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/gui/kit/test_hook.h"
#include "app/text/languages.h"
#include "core/kv_cache.h"

namespace attn::gui {
namespace {

using text::tr;
using text::trf;

constexpr int kTableLayers = 32, kTableHeadDim = 128, kTableContext = 4096;

// One row of cells coloured as the canvas colours the step (its range and colormap); a
// hovered cell's value and key in a tooltip. Masked cells (-inf) are left dark.
void colour_row(const char* id, const std::vector<float>& row, const StepDisplay& look, float width) {
    const float cell = std::max(2.0f, std::min(ImGui::GetFontSize(), width / static_cast<float>(std::max<size_t>(1, row.size()))));
    const ImVec2 at = ImGui::GetCursorScreenPos();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    for (size_t j = 0; j < row.size(); ++j) {
        const float v = row[j];
        const Rgb c = std::isfinite(v) ? sample_colormap(look.colormap, colormap_position(v, look.vmin, look.vmax)) : Rgb{0.1f, 0.1f, 0.1f};
        const ImVec2 a(at.x + cell * static_cast<float>(j), at.y);
        dl->AddRectFilled(a, ImVec2(a.x + cell - 1.0f, a.y + cell), pack_rgba(c));
    }
    ImGui::InvisibleButton(id, ImVec2(std::max(1.0f, cell * static_cast<float>(row.size())), cell));
    if (ImGui::IsItemHovered() && !row.empty()) {
        const size_t j = std::min(row.size() - 1, static_cast<size_t>((ImGui::GetIO().MousePos.x - at.x) / cell));
        ImGui::SetTooltip("%s", trf("decode.row.cell", {{"key", j}, {"value", format_value(row[j], 7)}}).c_str());
    }
}

void draw_row_compare(const DecodeRowStep& rows, const StepDisplay& look, int position, int head) {
    const size_t h = static_cast<size_t>(std::clamp<int>(head, 0, static_cast<int>(rows.decode.size()) - 1));
    const float width = ImGui::GetContentRegionAvail().x;
    ImGui::Separator();
    text_wrapped(trf("decode.row.title", {{"position", position}, {"head", h}}).c_str());
    ImGui::TextDisabled("%s", tr("decode.row.decoded"));
    colour_row("##decoded_row", rows.decode[h], look, width);
    ImGui::TextDisabled("%s", tr("decode.row.whole"));
    colour_row("##whole_row", rows.whole[h], look, width);
    const std::string difference = trf("decode.row.difference", {{"abs", format_value(rows.largest_difference, 2)},
                                                                 {"relative", format_value(rows.largest_relative, 2)}});
    text_wrapped(difference.c_str());
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    text_wrapped(tr("decode.row.rounding"));
    ImGui::PopStyleColor();
    note_for_tests("decode_row_difference " + format_value(rows.largest_relative, 2));
}

void draw_memory(const Results& results) {
    const Step* cache = results.trace->find(StepId::KCache);
    ImGui::Separator();
    text_wrapped(kv_memory_line(results.trace->config, results.decode ? results.decode->layers() : 1, cache ? cache->tensor.dim(2) : 0).c_str());
    text_wrapped(trf("decode.memory.table_title", {{"layers", kTableLayers}, {"head_dim", kTableHeadDim}, {"context", kTableContext}}).c_str());
    if (!ImGui::BeginTable("##kv_memory", 4, ImGuiTableFlags_Borders | ImGuiTableFlags_SizingFixedFit)) return;
    for (const char* key : {"decode.memory.kind", "decode.memory.kv_heads", "decode.memory.per_token", "decode.memory.context"})
        ImGui::TableSetupColumn(tr(key));
    ImGui::TableHeadersRow();
    for (const KvMemoryRow& row : kv_memory_table()) {
        ImGui::TableNextRow();
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(tr(row.name_key));
        ImGui::TableNextColumn();
        ImGui::Text("%d", row.kv_heads);
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(format_bytes(static_cast<uint64_t>(row.bytes_per_token)).c_str());
        ImGui::TableNextColumn();
        ImGui::TextUnformatted(format_bytes(static_cast<uint64_t>(row.bytes_per_token) * kTableContext).c_str());
    }
    ImGui::EndTable();
}

// The step's compared rows and its look, or null when the step on screen has none.
const DecodeRowStep* compared_rows(const Results& results, int step) {
    const Step* shown = results.step_at(step);
    if (!results.decode || !shown || !results.model || step >= static_cast<int>(results.model->steps.size())) return nullptr;
    const DecodeRowStep* rows = results.decode_rows.find(shown->id);
    return rows && !rows->decode.empty() ? rows : nullptr;
}

bool shows_cache(const Results& results, int step) {
    const Step* shown = results.step_at(step);
    return results.decode && shown && shown->kind == StepKind::CacheAppend;
}

}  // namespace

bool has_strip_line(const Results& results, int step) { return compared_rows(results, step) || shows_cache(results, step); }

void draw_strip_line(const Results& results, int step, int head) {
    if (shows_cache(results, step)) {
        const std::vector<KvMemoryRow> table = kv_memory_table();  // MHA, GQA, MQA
        const auto bytes = [&](size_t i) { return format_bytes(static_cast<uint64_t>(table[i].bytes_per_token)); };
        ImGui::TextDisabled("%s", trf("strip.memory.real", {{"layers", kTableLayers}, {"head_dim", kTableHeadDim}}).c_str());
        ImGui::TextDisabled("%s", trf("strip.memory.sizes", {{"mha", bytes(0)}, {"gqa", bytes(1)}, {"mqa", bytes(2)}}).c_str());
        return;
    }
    const DecodeRowStep* rows = compared_rows(results, step);
    if (!rows) return;
    const size_t h = static_cast<size_t>(std::clamp<int>(head, 0, static_cast<int>(rows->decode.size()) - 1));
    const StepDisplay& look = results.model->steps[static_cast<size_t>(step)];
    const float width = ImGui::GetContentRegionAvail().x * 0.3f;
    ImGui::TextDisabled("%s", trf("strip.row.decoded", {{"position", results.decode_rows.position}, {"head", h}}).c_str());
    ImGui::SameLine();
    colour_row("##strip_decoded", rows->decode[h], look, width);
    ImGui::SameLine();
    ImGui::TextDisabled("%s", tr("strip.row.whole"));
    ImGui::SameLine();
    colour_row("##strip_whole", rows->whole[h], look, width);
    ImGui::TextUnformatted(trf("strip.row.difference", {{"abs", format_value(rows->largest_difference, 2)}}).c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("decode.row.rounding"));
}

std::vector<KvMemoryRow> kv_memory_table() {
    std::vector<KvMemoryRow> rows;
    for (const auto& [key, kv_heads] : {std::pair<const char*, int>{"decode.memory.mha", 32}, {"decode.memory.gqa", 8}, {"decode.memory.mqa", 1}})
        rows.push_back({key, kv_heads, kv_cache_bytes_per_token(kTableLayers, kv_heads, kTableHeadDim, DType::BFloat16)});
    return rows;
}

void draw_decode_notes(const Results& results, int step, int head) {
    if (shows_cache(results, step)) return draw_memory(results);
    if (const DecodeRowStep* rows = compared_rows(results, step))
        draw_row_compare(*rows, results.model->steps[static_cast<size_t>(step)], results.decode_rows.position, head);
}

}  // namespace attn::gui
