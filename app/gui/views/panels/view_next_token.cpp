#include "app/gui/views/panels/view_next_token.h"

#include <imgui.h>

#include <algorithm>
#include <string>

#include "app/gui/display/colormap.h"
#include "app/gui/display/format.h"
#include "app/gui/display/next_token_bars.h"
#include "app/gui/kit/cjk_wrap.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/gui/kit/test_hook.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

using text::tr;
using text::trf;

constexpr int kMostBars = 16;

float bar_area_height() { return ImGui::GetFontSize() * 3.0f; }
float slot_width() { return ImGui::GetFontSize() * 3.4f; }
std::string probability_text(float p) { return format_cell_fixed(p, 2); }

// The settings the chart's second bar went through: the legend's short words (`tip`
// false) or the sentence its tooltip says.
std::string after_legend(const SamplingSettings& s, const NextTokenBars& bars, bool tip) {
    if (s.greedy()) return trf(tip ? "gen.next.legend.greedy.tip" : "gen.next.legend.greedy", {{"kept", bars.kept}, {"vocabulary", bars.vocabulary}});
    return trf(tip ? "gen.next.legend.after.tip" : "gen.next.legend.after",
               {{"temperature", format_value(s.temperature, 3)},
                {"top_k", s.top_k > 0 ? std::to_string(s.top_k) : std::string(tr("gen.off"))},
                {"top_p", s.top_p < 1.0f ? format_value(s.top_p, 3) : std::string(tr("gen.off"))},
                {"kept", bars.kept},
                {"vocabulary", bars.vocabulary}});
}

// A small filled square and its words, on the current line.
void legend_entry(uint32_t colour, const std::string& words) {
    const float side = ImGui::GetFontSize() * 0.7f;
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float y = at.y + (ImGui::GetTextLineHeight() - side) * 0.5f;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(at.x, y), ImVec2(at.x + side, y + side), colour);
    ImGui::Dummy(ImVec2(side, ImGui::GetTextLineHeight()));
    ImGui::SameLine(0.0f, ImGui::GetStyle().ItemInnerSpacing.x);
    ImGui::TextDisabled("%s", words.c_str());
}

// The title: which row chose the next token and what was drawn.
std::string chart_title(const DecodeRun& run, const std::vector<std::string>& tokens, const NextTokenChoice& choice, int step) {
    const int row = run.prefill() + step - 1;  // the step's last row: the prompt's last for the prefill
    const std::string after = row >= 0 && row < static_cast<int>(tokens.size()) ? tokens[static_cast<size_t>(row)] : "";
    const std::string drawn = run.problem->model->spec.vocabulary[static_cast<size_t>(choice.token)];
    const char* key = run.generation->settings.greedy() ? "gen.next.title_greedy" : "gen.next.title";
    return trf(key, {{"position", row},
                     {"token", after},
                     {"drawn", drawn},
                     {"probability", probability_text(choice.probability)},
                     {"model", probability_text(choice.model_probability)}});
}

// One token's slot: the model's bar (left half), the bar it was drawn from (right half),
// its label and probability under them; outlined when drawn.
void draw_slot(const NextTokenBar& bar, ImVec2 at, float largest, const ThemeColors& colours) {
    ImDrawList* dl = ImGui::GetWindowDrawList();
    const float slot = slot_width(), area = bar_area_height(), pad = slot * 0.12f;
    const float half = (slot - 2.0f * pad) * 0.5f, bottom = at.y + area;
    const float scale = largest > 0 ? area / largest : 0.0f;
    const uint32_t model_colour = pack_rgba(colours.dim, bar.kept ? 1.0f : 0.45f);
    dl->AddRectFilled(ImVec2(at.x + pad, bottom - bar.model * scale), ImVec2(at.x + pad + half, bottom), model_colour);
    if (bar.kept) dl->AddRectFilled(ImVec2(at.x + pad + half, bottom - bar.drawn_from * scale), ImVec2(at.x + pad + 2.0f * half, bottom), pack_rgba(colours.chip_bg));
    dl->AddLine(ImVec2(at.x, bottom), ImVec2(at.x + slot, bottom), pack_rgba(colours.dim));
    const float line = ImGui::GetTextLineHeight();
    const uint32_t text_colour = pack_rgba(bar.drawn ? colours.text : colours.dim, bar.kept ? 1.0f : 0.6f);
    const std::string value = probability_text(bar.drawn_from);  // 0 for a removed token: it cannot be drawn
    const ImVec4 clip(at.x, at.y, at.x + slot - 2.0f, bottom + 2.0f * line + 2.0f);
    for (int row = 0; row < 2; ++row) {
        const std::string& words = row == 0 ? bar.label : value;
        const float w = ImGui::CalcTextSize(words.c_str()).x;
        const ImVec2 pos(at.x + std::max(0.0f, (slot - w) * 0.5f), bottom + 1.0f + line * static_cast<float>(row));
        dl->AddText(ImGui::GetFont(), ImGui::GetFontSize(), pos, text_colour, words.c_str(), nullptr, 0.0f, &clip);
    }
    if (bar.drawn) dl->AddRect(ImVec2(at.x + 1.0f, at.y), ImVec2(at.x + slot - 1.0f, bottom + 2.0f * line + 1.0f), pack_rgba(colours.warning), 3.0f, 0, 2.0f);
}

std::string slot_tip(const NextTokenBar& bar) {
    return trf(bar.kept ? "gen.next.bar.tip" : "gen.next.bar.tip_removed",
               {{"token", bar.label}, {"id", bar.id}, {"model", format_value(bar.model, 4)}, {"drawn_from", format_value(bar.drawn_from, 4)}});
}

}  // namespace

float next_token_chart_height(const Results& results) {
    if (!results.decode || !results.decode->generation) return 0.0f;
    const float line = ImGui::GetTextLineHeightWithSpacing();
    // The title's two lines (it wraps), the legend's, the bars and their two lines of words.
    return line * 3.0f + bar_area_height() + ImGui::GetTextLineHeight() * 2.0f + ImGui::GetStyle().ItemSpacing.y * 2.0f;
}

void draw_next_token_chart(const Results& results, bool light_theme) {
    const DecodeRun* run = results.decode.get();
    if (!run || !run->generation) return;
    const ThemeColors colours = theme_colors(light_theme);
    const NextTokenChoice* choice = choice_after_step(*run, results.decode_step);
    const float height = next_token_chart_height(results);
    const ImVec2 top = ImGui::GetCursorScreenPos();
    if (!choice) {  // the last token: generation stops there
        ImGui::TextDisabled("%s", tr("gen.next.last"));
        ImGui::Dummy(ImVec2(1.0f, std::max(1.0f, top.y + height - ImGui::GetCursorScreenPos().y)));
        note_for_tests("next_token none step " + std::to_string(results.decode_step));
        return;
    }
    const std::vector<std::string> tokens = decode_tokens(*run, 0);
    text_wrapped(chart_title(*run, tokens, *choice, results.decode_step).c_str());
    // A title of one line leaves its second empty: the legend and the bars stay in place.
    const float legend_y = top.y + ImGui::GetTextLineHeightWithSpacing() * 2.0f;
    ImGui::SetCursorScreenPos(ImVec2(top.x, std::max(ImGui::GetCursorScreenPos().y, legend_y)));
    const float width = ImGui::GetContentRegionAvail().x;
    const int count = std::clamp(static_cast<int>(width / slot_width()), 3, kMostBars);
    const NextTokenBars bars = next_token_bars(*choice, run->problem->model->spec.vocabulary, count);
    legend_entry(pack_rgba(colours.dim), tr("gen.next.legend.model"));
    ImGui::SameLine();
    legend_entry(pack_rgba(colours.chip_bg), after_legend(run->generation->settings, bars, false));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", after_legend(run->generation->settings, bars, true).c_str());
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float slot = slot_width(), chart_h = bar_area_height() + ImGui::GetTextLineHeight() * 2.0f;
    for (size_t i = 0; i < bars.bars.size(); ++i) {
        const ImVec2 slot_at(at.x + slot * static_cast<float>(i), at.y);
        draw_slot(bars.bars[i], slot_at, bars.largest, colours);
        ImGui::SetCursorScreenPos(slot_at);
        ImGui::InvisibleButton(("##next_token" + std::to_string(i)).c_str(), ImVec2(slot, chart_h));
        note_item_for_tests("next_token.bar." + std::to_string(i));
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", slot_tip(bars.bars[i]).c_str());
    }
    ImGui::SetCursorScreenPos(at);
    ImGui::Dummy(ImVec2(slot * static_cast<float>(bars.bars.size()), chart_h));
    int drawn_at = -1;
    for (size_t i = 0; i < bars.bars.size(); ++i)
        if (bars.bars[i].drawn) drawn_at = static_cast<int>(i);
    note_for_tests("next_token step " + std::to_string(results.decode_step) + " drawn " + std::to_string(choice->token) + " bar " +
                   std::to_string(drawn_at) + " bars " + std::to_string(bars.bars.size()) + " kept " + std::to_string(bars.kept));
}

}  // namespace attn::gui
