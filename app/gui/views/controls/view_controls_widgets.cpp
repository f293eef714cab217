#include "app/gui/views/controls/view_controls_widgets.h"

#include <algorithm>
#include <cfloat>
#include <cmath>
#include <cstdio>

#include <imgui.h>
#include <imgui_internal.h>
#include <imgui_stdlib.h>

#include "app/gui/kit/cjk_wrap.h"
#include "app/gui/display/colormap.h"
#include "app/gui/kit/fonts_theme.h"
#include "app/gui/display/format.h"
#include "app/text/languages.h"

namespace attn::gui {

bool input_text_live(const char* label, const char* hint, std::string* text) {
    const bool escape = ImGui::GetActiveID() == ImGui::GetID(label) && ImGui::IsKeyPressed(ImGui::GetKeyIndex(ImGuiKey_Escape), false);
    const std::string applied = *text;
    const bool changed = ImGui::InputTextWithHint(label, hint, text);
    if (!escape) return changed;
    *text = applied;  // ImGui reverted it; the applied text stays, the field is left
    return false;
}

void text_wrapped_at_spaces(const std::string& text) {
    const float width = std::max(ImGui::GetContentRegionAvail().x, ImGui::GetFontSize() * 4.0f);
    ImGui::BeginGroup();
    // Breaks at spaces and between Chinese characters, never inside a number or a word.
    ImGui::TextUnformatted(wrap_cjk(*ImGui::GetFont(), ImGui::GetFontSize(), text, width).c_str());
    ImGui::EndGroup();
}

void help_marker(const char* text) {
    ImGui::SameLine();
    ImGui::TextDisabled("(?)");
    if (ImGui::IsItemHovered()) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
        text_wrapped(text);  // never inside "-3.403e+38" or "0..3", as ImGui's own wrapping breaks
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
}

void warning_note(const Message& message, bool light_theme) {
    if (message.empty()) return;
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(theme_colors(light_theme).warning));
    text_wrapped(text::render(message).c_str());
    ImGui::PopStyleColor();
}

void quiet_note(const std::string& text) {
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    text_wrapped(text.c_str());
    ImGui::PopStyleColor();
}

bool section_header(const char* key, const char* help_key, bool open) {
    const bool shown = ImGui::CollapsingHeader(text::label(key), open ? ImGuiTreeNodeFlags_DefaultOpen : 0);
    // The marker sits on the header's bar, at its right end, so it costs no line. When
    // the title leaves no room for it (a narrow panel), the whole bar shows the help.
    const ImGuiStyle& style = ImGui::GetStyle();
    const float marker = ImGui::CalcTextSize("(?)").x + style.FramePadding.x;
    const float title_end = ImGui::GetItemRectMin().x + style.FramePadding.x * 2.0f + ImGui::GetFontSize() +
                            style.ItemInnerSpacing.x + ImGui::CalcTextSize(text::tr(key)).x;
    bool hovered = false;
    if (title_end + style.ItemSpacing.x < ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x - marker) {
        ImGui::SameLine(ImGui::GetWindowContentRegionMax().x - marker);
        ImGui::TextDisabled("(?)");
        hovered = ImGui::IsItemHovered();
    } else {
        hovered = ImGui::IsItemHovered();
    }
    if (hovered) {
        ImGui::BeginTooltip();
        ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
        text_wrapped(text::tr(help_key));
        ImGui::PopTextWrapPos();
        ImGui::EndTooltip();
    }
    return shown;
}

void reason_tooltip(const char* reason) {
    if (!reason || !*reason || !ImGui::IsItemHovered(ImGuiHoveredFlags_AllowWhenDisabled)) return;
    ImGui::BeginTooltip();
    ImGui::PushTextWrapPos(ImGui::GetFontSize() * 26.0f);
    text_wrapped(reason);
    ImGui::PopTextWrapPos();
    ImGui::EndTooltip();
}

bool guarded_checkbox(const char* label, bool* value, const Message& refusal) {
    const bool blocked = !*value && !refusal.empty();
    ImGui::BeginDisabled(blocked);
    const bool toggled = ImGui::Checkbox(label, value);
    ImGui::EndDisabled();
    if (blocked) reason_tooltip(text::render(refusal).c_str());
    return toggled;
}

namespace {

// The value of the slider just drawn (ImGui's centred text left empty) inside its frame, on
// the side away from the grab at `ratio` (0..1 of its travel): never under the grab.
void draw_value_aside(const std::string& value, float ratio, float frame_w, float grab_w) {
    if (ImGui::TempInputIsActive(ImGui::GetItemID())) return;  // Ctrl+click: a text field there
    // The frame only: the item's rectangle also holds the label right of it.
    const ImVec2 lo = ImGui::GetItemRectMin(), hi(lo.x + frame_w, ImGui::GetItemRectMax().y);
    const float pad = ImGui::GetStyle().FramePadding.x, w = ImGui::CalcTextSize(value.c_str()).x;
    const float grab_x = lo.x + 2.0f + grab_w * 0.5f + std::clamp(ratio, 0.0f, 1.0f) * (hi.x - lo.x - 4.0f - grab_w);
    const float x = grab_x > (lo.x + hi.x) * 0.5f ? lo.x + pad : hi.x - pad - w;
    const float y = lo.y + (hi.y - lo.y - ImGui::GetFontSize()) * 0.5f;
    ImDrawList* dl = ImGui::GetWindowDrawList();
    dl->PushClipRect(lo, hi, true);
    dl->AddText(ImVec2(x, y), ImGui::GetColorU32(ImGuiCol_Text, ImGui::GetStyle().Alpha), value.c_str());
    dl->PopClipRect();
}

// Where a value sits along a slider's travel (logarithmic sliders here start above 0).
float travel_ratio(float v, float lo, float hi, bool logarithmic) {
    if (hi <= lo) return 0.0f;
    if (logarithmic && lo > 0.0f) return std::log(std::max(v, lo) / lo) / std::log(hi / lo);
    return (v - lo) / (hi - lo);
}

}  // namespace

bool slider_int_aside(const char* label, int* value, int lo, int hi, const char* format, ImGuiSliderFlags flags) {
    const float frame_w = ImGui::CalcItemWidth();
    const bool changed = ImGui::SliderInt(label, value, lo, hi, "", flags);
    char text[64];
    std::snprintf(text, sizeof text, format, *value);
    const float width = frame_w - 4.0f;
    const float grab_w = std::min(width, std::max(width / static_cast<float>(hi - lo + 1), ImGui::GetStyle().GrabMinSize));
    draw_value_aside(text, travel_ratio(static_cast<float>(*value), static_cast<float>(lo), static_cast<float>(hi),
                                        (flags & ImGuiSliderFlags_Logarithmic) != 0),
                     frame_w, grab_w);
    return changed;
}

bool slider_float_aside(const char* label, float* value, float lo, float hi, const char* format, ImGuiSliderFlags flags) {
    const float frame_w = ImGui::CalcItemWidth();
    const bool changed = ImGui::SliderFloat(label, value, lo, hi, "", flags);
    char text[64];
    std::snprintf(text, sizeof text, format, static_cast<double>(*value));
    draw_value_aside(text, travel_ratio(*value, lo, hi, (flags & ImGuiSliderFlags_Logarithmic) != 0), frame_w,
                     ImGui::GetStyle().GrabMinSize);
    return changed;
}

void begin_fixed_group(const char* reason) {
    ImGui::BeginGroup();
    ImGui::BeginDisabled(reason != nullptr);
}

void end_fixed_group(const char* reason) {
    ImGui::EndDisabled();
    ImGui::EndGroup();
    reason_tooltip(reason);
}

std::string combo_label(const char* key, const char* preview) {
    const float fs = ImGui::GetFontSize();
    // The chosen text needs its own width, the frame's padding and the arrow button.
    const float preview_w = preview ? ImGui::CalcTextSize(preview).x + ImGui::GetStyle().FramePadding.x * 2.0f + ImGui::GetFrameHeight() : 0.0f;
    const float avail = ImGui::GetContentRegionAvail().x;
    if (avail >= fs * 19.0f && preview_w <= ImGui::CalcItemWidth()) return text::label(key);
    ImGui::TextUnformatted(text::tr(key));
    // Room for a help marker beside it, unless the chosen text would then be cut.
    ImGui::SetNextItemWidth(preview_w <= avail - fs * 1.6f ? -fs * 1.6f : -FLT_MIN);
    return std::string("##") + key;
}

const char* combo_preview(const char* full, const char* brief) {
    // CalcItemWidth() is the next item's width, SetNextItemWidth included.
    const float room = ImGui::CalcItemWidth() - ImGui::GetStyle().FramePadding.x * 2.0f - ImGui::GetFrameHeight();
    return ImGui::CalcTextSize(full).x <= room ? full : brief;
}

void flow_checkbox(const char* label) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const float width = ImGui::GetFrameHeight() + style.ItemInnerSpacing.x + ImGui::CalcTextSize(label).x;
    if (ImGui::GetItemRectMax().x + style.ItemSpacing.x + width < right) ImGui::SameLine();
}

void flow(const std::string& label) {
    const float right = ImGui::GetWindowPos().x + ImGui::GetWindowContentRegionMax().x;
    const float width = ImGui::CalcTextSize(label.c_str()).x + ImGui::GetStyle().FramePadding.x * 2.0f;
    const float next = ImGui::GetItemRectMax().x + ImGui::GetStyle().ItemSpacing.x + width;
    if (next < right) ImGui::SameLine();
}

}  // namespace attn::gui
