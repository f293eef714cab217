#include "app/gui/views/panels/view_title_strip.h"

#include <imgui.h>

#include <algorithm>

#include "app/gui/views/view_registry.h"
#include "app/gui/kit/cjk_wrap.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

float large_font_px(const FrameContext& ctx) { return ctx.fonts.large ? ctx.fonts.large->FontSize : 26.0f; }

}  // namespace

TitleStrip measure_title_strip(const AppState& state, const FrameContext& ctx, float full_w, float h, bool second_line,
                               ImVec2 reserved) {
    TitleStrip strip;
    strip.reserved_w = reserved.x;
    const float w = std::max(1.0f, full_w - reserved.x);
    const float large = large_font_px(ctx);
    const ImVec2 pad = ImGui::GetStyle().WindowPadding;
    const Trace* trace = state.results.trace.get();
    if (trace && !trace->steps.empty()) {
        const int count = static_cast<int>(trace->steps.size());
        const int index = std::clamp(state.ui.playback.step(), 0, count - 1);
        strip.words = text::describe_step(trace->steps[static_cast<size_t>(index)], *trace);
        strip.title = std::to_string(index + 1) + " / " + std::to_string(count) + "   " + strip.words.title;
        // A lesson's slide, presented or exported: the slide's place and title first (present_ui.h).
        const PresentUi& present = state.ui.present;
        if (present.slides > 0)
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
    // line would be taken from the picture. Without the formula beside, a title wider than
    // the strip shrinks to 70%, and beyond that wraps.
    const float room = std::max(1.0f, w - pad_x * 2.0f);
    float fit = 1.0f;
    if (presenting) fit = std::clamp((w - formula_w - pad_x * 6.0f) / std::max(1.0f, title_w), 0.8f, 1.0f);
    strip.formula_beside = title_w * fit + formula_w + pad_x * 6.0f < w;
    if (!strip.formula_beside) fit = std::clamp(room / std::max(1.0f, title_w), 0.7f, 1.0f);
    strip.title_scale = fit * strip.text_scale;
    strip.formula_below = second_line && !strip.formula_beside;
    const float title_px = large * strip.title_scale;
    strip.title_lines = ctx.fonts.large ? wrap_cjk_lines(*ctx.fonts.large, title_px, strip.title, room)
                                        : std::vector<std::string>{strip.title};
    const float lines = static_cast<float>(std::max<size_t>(1, strip.title_lines.size()));
    strip.line_h = title_px * 1.15f;
    if (second_line) {  // the title at the top, as the explanation at the bottom
        const float formula_line = strip.formula_below ? ImGui::GetFontSize() * strip.text_scale * 1.5f : 0.0f;
        strip.height = title_px * 1.25f + strip.line_h * (lines - 1.0f) + formula_line + pad_y * 2.0f;
        strip.title_y = pad_y;
    } else {  // a fixed strip, the title centred in it (taller when the title wraps)
        strip.height = std::min(h * 0.5f, std::max(large * kCanvasTitleEm, strip.line_h * lines + pad_y * 2.0f));
        strip.title_y = (strip.height - strip.line_h * (lines - 1.0f) - title_px) * 0.5f;
    }
    strip.height = std::max(strip.height, reserved.y);
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
        ImGui::PushFont(ctx.fonts.large);
        ImGui::SetWindowFontScale(strip.title_scale);
        for (size_t i = 0; i < strip.title_lines.size(); ++i) {
            ImGui::SetCursorPosY(title_y + strip.line_h * static_cast<float>(i));
            ImGui::TextUnformatted(strip.title_lines[i].c_str());
        }
        ImGui::SetWindowFontScale(1.0f);
        ImGui::PopFont();
        const ImVec4 formula_colour = to_imvec4(theme_colors(light_theme).formula);
        ImGui::SetWindowFontScale(strip.text_scale);
        if (strip.formula_beside) {
            const float formula_w = ImGui::CalcTextSize(strip.words.formula.c_str()).x;
            ImGui::SetCursorPos(ImVec2(w - strip.reserved_w - formula_w - pad.x, title_y + (large * strip.title_scale - ImGui::GetFontSize()) * 0.5f));
            ImGui::TextColored(formula_colour, "%s", strip.words.formula.c_str());
        } else if (strip.formula_below) {
            ImGui::TextColored(formula_colour, "%s", strip.words.formula.c_str());
        }
        ImGui::SetWindowFontScale(1.0f);
    }
    ImGui::End();
}

}  // namespace attn::gui
