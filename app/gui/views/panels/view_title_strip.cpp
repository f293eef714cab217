#include "app/gui/views/panels/view_title_strip.h"

#include <imgui.h>

#include <algorithm>

#include "app/gui/views/view_registry.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/text/languages.h"

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
        strip.words = text::describe_step(trace->steps[static_cast<size_t>(index)], *trace);
        strip.title = std::to_string(index + 1) + " / " + std::to_string(count) + "   " + strip.words.title;
        // Presenting a lesson in the window: the slide's place and title first (present_ui.h).
        const PresentUi& present = state.ui.present;
        if (present.slides > 0 && !ctx.offscreen)
            strip.title = text::trf("present.strip", {{"number", present.slide + 1}, {"count", present.slides},
                                                      {"slide", present.slide_title}, {"step", strip.words.title}});
    }
    // In presentation a larger UI scale must not take height from the picture: the strip
    // keeps the type it has at UI scale 1 (presentation's own larger type stays).
    const bool presenting = second_line && state.ui.presentation;
    strip.text_scale = presenting ? 1.0f / std::max(1.0f, state.settings.ui_scale) : 1.0f;
    ImGui::PushFont(ctx.fonts.large);
    const float title_w = ImGui::CalcTextSize(strip.title.c_str()).x * strip.text_scale;
    ImGui::PopFont();
    const float formula_w = ImGui::CalcTextSize(strip.words.formula.c_str()).x * strip.text_scale;
    const float pad_x = pad.x * strip.text_scale, pad_y = pad.y * strip.text_scale;
    // In presentation the title may shrink to 80% so the formula stays beside it: a second
    // line would be taken from the picture.
    float fit = 1.0f;
    if (presenting) fit = std::clamp((w - formula_w - pad_x * 6.0f) / std::max(1.0f, title_w), 0.8f, 1.0f);
    strip.title_scale = fit * strip.text_scale;
    strip.formula_beside = title_w * fit + formula_w + pad_x * 6.0f < w;
    strip.formula_below = second_line && !strip.formula_beside;
    if (second_line) {  // the title at the top, as the explanation at the bottom
        const float formula_line = strip.formula_below ? ImGui::GetFontSize() * strip.text_scale * 1.5f : 0.0f;
        strip.height = large * strip.title_scale * 1.25f + formula_line + pad_y * 2.0f;
        strip.title_y = pad_y;
    } else {  // a fixed strip, the title centred in it
        strip.height = std::min(h * 0.5f, large * kCanvasTitleEm);
        strip.title_y = (strip.height - large) * 0.5f;
    }
    return strip;
}

void draw_title_strip(const TitleStrip& strip, const FrameContext& ctx, bool light_theme, float w) {
    place_window(0, 0, w, strip.height);
    const ImVec2 style_pad = ImGui::GetStyle().WindowPadding;
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(style_pad.x * strip.text_scale, style_pad.y * strip.text_scale));
    ImGui::Begin("##title_strip", nullptr, kTiledPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    ImGui::PopStyleVar();
    if (!strip.title.empty()) {
        const float large = large_font_px(ctx);
        const ImVec2 pad(style_pad.x * strip.text_scale, style_pad.y * strip.text_scale);  // as the strip was begun with
        const float title_y = strip.title_y;
        ImGui::SetCursorPosY(title_y);
        ImGui::PushFont(ctx.fonts.large);
        ImGui::SetWindowFontScale(strip.title_scale);
        ImGui::TextUnformatted(strip.title.c_str());
        ImGui::SetWindowFontScale(1.0f);
        ImGui::PopFont();
        const ImVec4 formula_colour = to_imvec4(theme_colors(light_theme).formula);
        ImGui::SetWindowFontScale(strip.text_scale);
        if (strip.formula_beside) {
            const float formula_w = ImGui::CalcTextSize(strip.words.formula.c_str()).x;
            ImGui::SetCursorPos(ImVec2(w - formula_w - pad.x, title_y + (large * strip.title_scale - ImGui::GetFontSize()) * 0.5f));
            ImGui::TextColored(formula_colour, "%s", strip.words.formula.c_str());
        } else if (strip.formula_below) {
            ImGui::TextColored(formula_colour, "%s", strip.words.formula.c_str());
        }
        ImGui::SetWindowFontScale(1.0f);
    }
    ImGui::End();
}

}  // namespace attn::gui
