#include "app/gui/views/panels/view_presentation_footer.h"

#include <algorithm>
#include <cmath>

#include "app/gui/kit/cjk_wrap.h"
#include "app/gui/views/canvas/view_canvas_panel.h"
#include "app/gui/views/view_registry.h"

namespace attn::gui {
namespace {

// The explanation at `scale`, wrapped at the window's right edge (between Chinese characters too).
void explanation_text(const std::string& explanation, float scale) {
    ImGui::SetWindowFontScale(scale);
    ImGui::PushTextWrapPos(0.0f);
    text_wrapped(explanation.c_str());
    ImGui::PopTextWrapPos();
    ImGui::SetWindowFontScale(1.0f);
}

// The column beside the canvas: the canvas's caption and legend, then the explanation.
void side_column(const AppState& state, UiState& ui, const FrameContext& ctx, const Rect& area, const PresentationLayout& layout) {
    const float text_scale = layout.strip.text_scale;
    const std::string& explanation = layout.strip.words.explanation;
    const ImVec2 pad = ImGui::GetStyle().WindowPadding;
    place_window(area.x, area.y, area.w, area.h);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, footer_padding(text_scale));
    ImGui::Begin("##present_footer", nullptr, kTiledPanelFlags | ImGuiWindowFlags_NoTitleBar);
    ImGui::PopStyleVar();
    const ImVec2 at = ImGui::GetCursorScreenPos();
    const float key_h = draw_presentation_key(state, ui, ctx, Rect{at.x, at.y, area.w - pad.x * 2.0f, 0.0f});
    ImGui::SetCursorScreenPos(ImVec2(at.x, at.y + key_h));
    explanation_text(explanation, fit_footer(explanation, area.w, area.h - key_h, text_scale).font_scale);
    ImGui::End();
}

}  // namespace

ImVec2 footer_padding(float base) {
    const ImVec2 pad = ImGui::GetStyle().WindowPadding;
    return ImVec2(pad.x * base, pad.y * base);
}

FooterText fit_footer(const std::string& text, float w, float most_h, float base) {
    const ImVec2 pad = footer_padding(base);
    const float wrap = std::max(1.0f, w - 10.0f - pad.x * 2.0f);
    const float most = std::floor(most_h) - pad.y * 2.0f;
    FooterText out;
    for (const float step : {1.0f, 0.9f, 0.8f}) {
        const float scale = step * base;
        // Text at a smaller scale wraps as at a wider width at full size.
        const float text_h = ImGui::CalcTextSize(text.c_str(), nullptr, false, wrap / scale).y * scale;
        out.font_scale = scale;
        out.height = std::max(text_h, ImGui::GetFontSize() * base * 2.0f) + pad.y * 2.0f;
        if (text_h <= most) return out;
    }
    out.height = most + pad.y * 2.0f;
    out.scrolls = true;
    return out;
}

Actions draw_presentation_title(const AppState& state, UiState&, const FrameContext& ctx, const Rect& area) {
    if (ctx.presentation) draw_title_strip(ctx.presentation->strip, ctx, state.settings.light_theme, area.w);
    return Actions{};
}

Actions draw_presentation_footer(const AppState& state, UiState& ui, const FrameContext& ctx, const Rect& area) {
    const PresentationLayout* layout = ctx.presentation;
    if (!layout) return Actions{};
    if (layout->beside) {
        side_column(state, ui, ctx, area, *layout);
        return Actions{};
    }
    place_window(area.x, area.y, area.w, area.h);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, footer_padding(layout->strip.text_scale));
    ImGui::Begin("##present_footer", nullptr,
                 kTiledPanelFlags | ImGuiWindowFlags_NoTitleBar | (layout->footer.scrolls ? 0 : ImGuiWindowFlags_NoScrollbar));
    ImGui::PopStyleVar();
    if (!layout->strip.title.empty()) explanation_text(layout->strip.words.explanation, layout->footer.font_scale);
    ImGui::End();
    return Actions{};
}

}  // namespace attn::gui
