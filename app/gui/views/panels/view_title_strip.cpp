#include "app/gui/views/panels/view_title_strip.h"

#include <imgui.h>

#include <algorithm>

#include "app/gui/views/view_registry.h"
#include "app/gui/window/fonts_theme.h"

namespace attn::gui {
namespace {

float large_font_px(const FrameContext& ctx) { return ctx.fonts.large ? ctx.fonts.large->FontSize : 26.0f; }

}  // namespace

TitleStrip measure_title_strip(const AppState& state, const FrameContext& ctx, float w, float h, bool second_line) {
    TitleStrip strip;
    const float large = large_font_px(ctx);
    const ImVec2 pad = ImGui::GetStyle().WindowPadding;
    const Trace* trace = state.results.trace.get();
    if (trace && !trace->steps.empty()) {
        const int count = static_cast<int>(trace->steps.size());
        const int index = std::clamp(state.ui.playback.step(), 0, count - 1);
        strip.words = text::describe_step(trace->steps[static_cast<size_t>(index)], trace->config);
        strip.title = std::to_string(index + 1) + " / " + std::to_string(count) + "   " + strip.words.title;
    }
    ImGui::PushFont(ctx.fonts.large);
    const float title_w = ImGui::CalcTextSize(strip.title.c_str()).x;
    ImGui::PopFont();
    const float formula_w = ImGui::CalcTextSize(strip.words.formula.c_str()).x;
    // In presentation the title may shrink to 80% so the formula stays beside it (a larger
    // UI scale): a second line would be taken from the picture.
    if (second_line && state.ui.presentation)
        strip.title_scale = std::clamp((w - formula_w - pad.x * 6.0f) / std::max(1.0f, title_w), 0.8f, 1.0f);
    strip.formula_beside = title_w * strip.title_scale + formula_w + pad.x * 6.0f < w;
    strip.formula_below = second_line && !strip.formula_beside;
    if (second_line) {  // the title at the top, as the explanation at the bottom
        strip.height = large * strip.title_scale * 1.25f + (strip.formula_below ? ImGui::GetFontSize() * 1.5f : 0.0f) + pad.y * 2.0f;
        strip.title_y = pad.y;
    } else {  // a fixed strip, the title centred in it
        strip.height = std::min(h * 0.5f, large * kCanvasTitleEm);
        strip.title_y = (strip.height - large) * 0.5f;
    }
    return strip;
}

void draw_title_strip(const TitleStrip& strip, const FrameContext& ctx, bool light_theme, float w) {
    place_window(0, 0, w, strip.height);
    ImGui::Begin("##title_strip", nullptr, kTiledPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    if (!strip.title.empty()) {
        const float large = large_font_px(ctx);
        const ImVec2 pad = ImGui::GetStyle().WindowPadding;
        const float title_y = strip.title_y;
        ImGui::SetCursorPosY(title_y);
        ImGui::PushFont(ctx.fonts.large);
        ImGui::SetWindowFontScale(strip.title_scale);
        ImGui::TextUnformatted(strip.title.c_str());
        ImGui::SetWindowFontScale(1.0f);
        ImGui::PopFont();
        const ImVec4 formula_colour = to_imvec4(theme_colors(light_theme).formula);
        if (strip.formula_beside) {
            const float formula_w = ImGui::CalcTextSize(strip.words.formula.c_str()).x;
            ImGui::SetCursorPos(ImVec2(w - formula_w - pad.x, title_y + (large * strip.title_scale - ImGui::GetFontSize()) * 0.5f));
            ImGui::TextColored(formula_colour, "%s", strip.words.formula.c_str());
        } else if (strip.formula_below) {
            ImGui::TextColored(formula_colour, "%s", strip.words.formula.c_str());
        }
    }
    ImGui::End();
}

}  // namespace attn::gui
