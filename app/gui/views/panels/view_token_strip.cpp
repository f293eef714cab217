#include "app/gui/views/panels/view_token_strip.h"

#include <imgui.h>

#include <string>

#include "app/gui/display/format.h"
#include "app/gui/views/panels/view_decode_notes.h"
#include "app/gui/views/panels/view_next_token.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/gui/kit/test_hook.h"
#include "app/text/languages.h"
#include "core/kv_cache.h"

namespace attn::gui {
namespace {

using text::tr;
using text::trf;

// One token's chip: the current step's in white on the chip colour, a step not made yet dimmed.
bool token_chip(const std::string& token, int position, bool current, bool made, bool light_theme) {
    if (current) {
        ImGui::PushStyleColor(ImGuiCol_Button, to_imvec4(theme_colors(light_theme).chip_bg));
        ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1, 1, 1, 1));
    } else if (!made) {
        ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_TextDisabled));
    }
    const bool clicked = ImGui::Button((token + "##token" + std::to_string(position)).c_str());
    if (current) ImGui::PopStyleColor(2);
    else if (!made) ImGui::PopStyleColor();
    note_item_for_tests("token." + std::to_string(position));
    return clicked;
}

// The tooltip of the chip at `position`.
std::string chip_tip(const DecodeRun& run, int position) {
    if (position < run.prefill()) return trf("strip.prompt.tip", {{"last", run.prefill() - 1}});
    const int step = run.step_of_position(position);
    if (const NextTokenChoice* drawn = choice_after_step(run, step - 1))  // the choice that put this token here
        return trf("strip.token.tip_generated", {{"position", position}, {"step", step}, {"keys", position + 1},
                                                 {"row", position - 1}, {"probability", format_cell_fixed(drawn->probability, 2)}});
    return trf(step <= run.made() ? "strip.token.tip" : "strip.token.tip_new",
               {{"position", position}, {"step", step}, {"keys", position + 1}});
}

// The row of chips, with room for its sideways scrollbar (a long generation scrolls).
float chips_height() { return ImGui::GetFrameHeightWithSpacing() + ImGui::GetStyle().ScrollbarSize; }

}  // namespace

float token_strip_height(const Results& results, int step) {
    if (!results.decode) return 0.0f;
    const ImGuiStyle& style = ImGui::GetStyle();
    const float lines = has_strip_line(results, step) ? 3.0f : 1.0f;
    return chips_height() + next_token_chart_height(results) + (ImGui::GetFrameHeight() + style.ItemSpacing.y) * lines +
           style.WindowPadding.y * 2.0f;
}

std::string kv_memory_line(const AttentionConfig& config, int layers, int64_t positions) {
    const int64_t per_token = kv_cache_bytes_per_token(layers, config.H_kv(), config.head_dim(), config.dtype);
    return trf("strip.memory", {{"layers", layers},
                                {"kv_heads", config.H_kv()},
                                {"head_dim", config.head_dim()},
                                {"bytes", config.dtype == DType::Float32 ? 4 : 2},
                                {"per_token", format_bytes(static_cast<uint64_t>(per_token))},
                                {"positions", positions},
                                {"batch", config.batch},
                                {"total", format_bytes(static_cast<uint64_t>(per_token * positions * config.batch))}});
}

Actions draw_token_strip(const Results& results, int step_on_screen, int head, bool light_theme) {
    Actions out;
    const DecodeRun* run = results.decode.get();
    if (!run || !results.trace) return out;
    const std::vector<std::string> tokens = decode_tokens(*run, results.model ? results.model->batch_item : 0);
    const float spacing = ImGui::GetStyle().ItemSpacing.x * 0.5f;
    ImGui::BeginChild("##tokens", ImVec2(0, chips_height()), false, ImGuiWindowFlags_HorizontalScrollbar);
    ImGui::AlignTextToFramePadding();
    ImGui::TextDisabled("%s", tr("strip.prompt"));
    for (int position = 0; position < run->length(); ++position) {
        if (position == run->prefill()) {
            ImGui::SameLine();
            ImGui::TextDisabled("%s", tr(run->generation ? "strip.generated" : "strip.decoded"));
        }
        ImGui::SameLine(0.0f, spacing);
        const int step = run->step_of_position(position);
        const std::string token = static_cast<size_t>(position) < tokens.size() ? tokens[static_cast<size_t>(position)] : "t" + std::to_string(position);
        const bool current = step == results.decode_step;
        if (token_chip(token, position, current, step <= run->made(), light_theme)) out.decode_step = step;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", chip_tip(*run, position).c_str());
        if (current && step > 0 && !ImGui::IsItemVisible()) ImGui::SetScrollHereX(0.5f);  // the step on screen stays in view
    }
    if (ImGui::IsWindowHovered() && ImGui::GetIO().MouseWheel != 0.0f)  // the wheel scrolls the chips sideways
        ImGui::SetScrollX(ImGui::GetScrollX() - ImGui::GetIO().MouseWheel * ImGui::GetFontSize() * 3.0f);
    ImGui::EndChild();
    draw_next_token_chart(results, light_theme);
    const Step* cache = results.trace->find(StepId::KCache);
    const int64_t positions = cache ? cache->tensor.dim(2) : 0;
    const AttentionConfig& c = run->problem->config;
    const int64_t per_token = kv_cache_bytes_per_token(run->layers(), c.H_kv(), c.head_dim(), c.dtype);
    ImGui::TextDisabled("%s", trf("strip.memory_short", {{"per_token", format_bytes(static_cast<uint64_t>(per_token))},
                                                          {"positions", positions},
                                                          {"batch", c.batch},
                                                          {"total", format_bytes(static_cast<uint64_t>(per_token * positions * c.batch))}}).c_str());
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", kv_memory_line(c, run->layers(), positions).c_str());
    draw_strip_line(results, step_on_screen, head);
    if (run->generation) {
        std::string generated = "generated";
        for (size_t i = static_cast<size_t>(run->prefill()); i < tokens.size(); ++i) generated += " " + tokens[i];
        note_for_tests(generated);
    }
    note_for_tests("decode_step " + std::to_string(results.decode_step) + " made " + std::to_string(run->made()) + " cache " +
                   std::to_string(positions));
    return out;
}

}  // namespace attn::gui
