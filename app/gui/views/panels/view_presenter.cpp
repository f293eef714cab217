#include "app/gui/views/panels/view_presenter.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <cmath>
#include <ctime>

#include "app/gui/display/annotations.h"
#include "app/gui/views/view_registry.h"
#include "app/gui/kit/cjk_wrap.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

// "14:05" (the wall clock) and "12:31" (minutes and seconds since the lesson opened).
std::string wall_clock() {
    const std::time_t t = std::time(nullptr);
    std::tm local{};
    localtime_r(&t, &local);
    char text[16];
    std::strftime(text, sizeof text, "%H:%M", &local);
    return text;
}
std::string elapsed(double seconds) {
    const int s = std::max(0, static_cast<int>(seconds));
    char text[24];
    std::snprintf(text, sizeof text, "%d:%02d", s / 60, s % 60);
    return text;
}

// Four swatches: in presentation at the title strip's right end, which keeps room for
// them (frame.cpp), so they cover neither the picture nor the explanation; in the window
// in the screen's bottom-left corner. The chosen one is framed.
void pen_palette(PresentUi& present, bool in_title_strip) {
    const float fs = ImGui::GetFontSize(), swatch = fs * 1.4f;
    if (in_title_strip) ImGui::SetNextWindowPos(ImVec2(ImGui::GetIO().DisplaySize.x, 0.0f), ImGuiCond_Always, ImVec2(1.0f, 0.0f));
    else ImGui::SetNextWindowPos(ImVec2(fs * 0.3f, ImGui::GetIO().DisplaySize.y - fs * 0.3f), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowBgAlpha(0.9f);
    ImGui::Begin("##pen_palette", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_AlwaysAutoResize);
    ImGui::AlignTextToFramePadding();
    ImGui::TextUnformatted(text::tr("pen.palette"));
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text::tr("pen.help"));
    for (size_t i = 0; i < kPenRgb.size(); ++i) {
        ImGui::SameLine();
        const ImVec4 colour(kPenRgb[i][0], kPenRgb[i][1], kPenRgb[i][2], 1.0f);
        const std::string id = "##pen" + std::to_string(i);
        if (ImGui::ColorButton(id.c_str(), colour, ImGuiColorEditFlags_NoTooltip, ImVec2(swatch, swatch)))
            present.pen_colour = static_cast<int>(i);
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", text::trf("pen.colour", {{"key", static_cast<int>(i) + 1},
                                                              {"colour", text::tr(std::string("pen.colour.") + lesson::kPenColours[i])}})
                                        .c_str());
        if (present.pen_colour == static_cast<int>(i)) {
            const ImVec2 a = ImGui::GetItemRectMin(), b = ImGui::GetItemRectMax();
            ImGui::GetWindowDrawList()->AddRect(ImVec2(a.x - 2, a.y - 2), ImVec2(b.x + 2, b.y + 2), IM_COL32(255, 255, 255, 255), 0.0f, 0, 2.0f);
        }
    }
    ImGui::End();
}

// The note in a box in the screen's bottom-right corner, under a third of its width: over
// the explanation (beside or under the picture) more than over the picture.
void note_overlay(const PresentUi& present, double now) {
    const float fs = ImGui::GetFontSize();
    const ImVec2 screen = ImGui::GetIO().DisplaySize;
    const float w = std::clamp(screen.x * 0.3f, std::min(screen.x, fs * 14.0f), std::max(fs * 14.0f, fs * 26.0f));
    ImGui::SetNextWindowPos(ImVec2(screen.x - fs * 0.3f, screen.y - fs * 0.3f), ImGuiCond_Always, ImVec2(1.0f, 1.0f));
    ImGui::SetNextWindowSize(ImVec2(w, 0.0f));
    ImGui::SetNextWindowBgAlpha(1.0f);  // the explanation under it must not show through
    ImGui::Begin("##present_note", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_AlwaysAutoResize);
    draw_note_text(present, now);
    ImGui::End();
}

// How long a notice stays over the picture.
constexpr double kNoticeSeconds = 6.0;

// One line in a box at the bottom centre of the screen, over the explanation (for a few
// seconds) rather than over the picture or its formula.
void banner(const char* id, const std::string& line) {
    const float fs = ImGui::GetFontSize();
    const ImVec2 screen = ImGui::GetIO().DisplaySize;
    ImGui::SetNextWindowPos(ImVec2(screen.x * 0.5f, screen.y - fs * 0.5f), ImGuiCond_Always, ImVec2(0.5f, 1.0f));
    ImGui::SetNextWindowSizeConstraints(ImVec2(0, 0), ImVec2(screen.x * 0.9f, screen.y * 0.5f));
    ImGui::SetNextWindowBgAlpha(0.95f);
    ImGui::Begin(id, nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_AlwaysAutoResize | ImGuiWindowFlags_NoFocusOnAppearing);
    ImGui::BringWindowToDisplayFront(ImGui::GetCurrentWindow());  // over the footer, which came first
    ImGui::PushTextWrapPos(screen.x * 0.85f);
    text_wrapped(line.c_str());
    ImGui::PopTextWrapPos();
    ImGui::End();
}

// The dot in the chosen colour with its trail, fading (View > Laser colour).
void pointer(const PresentUi& present, int colour, double now) {
    const ImGuiIO& io = ImGui::GetIO();
    const float r = pointer_radius(io.DisplaySize.x, io.DisplaySize.y);
    ImDrawList* dl = ImGui::GetForegroundDrawList();
    const auto& rgb = kPenRgb[static_cast<size_t>(std::clamp(colour, 0, static_cast<int>(kPenRgb.size()) - 1))];
    for (const PointerTrace& t : present.trail) {
        const float fresh = 1.0f - static_cast<float>(std::clamp((now - t.time) / kPointerTrailSeconds, 0.0, 1.0));
        dl->AddCircleFilled(ImVec2(t.x, t.y), r * (0.3f + 0.5f * fresh), ImGui::GetColorU32(ImVec4(rgb[0], rgb[1], rgb[2], 0.63f * fresh)));
    }
    draw_laser_dot(dl, io.MousePos, r, colour);
    ImGui::SetMouseCursor(ImGuiMouseCursor_None);
}

}  // namespace

ImVec2 pen_palette_size() {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float swatch = ImGui::GetFontSize() * 1.4f;
    const float w = style.WindowPadding.x * 2.0f + ImGui::CalcTextSize(text::tr("pen.palette")).x +
                    static_cast<float>(kPenRgb.size()) * (style.ItemSpacing.x + swatch);
    return ImVec2(w, style.WindowPadding.y * 2.0f + std::max(swatch, ImGui::GetFrameHeight()));
}

float pointer_radius(float w, float h) { return std::max(6.0f, std::min(w, h) * 0.014f); }

std::string lesson_countdown(const PresentUi& present, double now) {
    if (present.minutes <= 0) return "";
    const double left = present.minutes * 60.0 - (now - present.started);
    return left >= 0 ? text::trf("present.note.countdown", {{"left", elapsed(std::ceil(left))}, {"minutes", present.minutes}})
                     : text::trf("present.note.overtime", {{"over", elapsed(-left)}, {"minutes", present.minutes}});
}

// A black ring and a white one round the dot: on a cell of the dot's own colour (a red
// dot on dark red) the rings still outline it, and on any cell one of them contrasts.
void draw_laser_dot(ImDrawList* dl, ImVec2 at, float r, int colour) {
    const auto& rgb = kPenRgb[static_cast<size_t>(std::clamp(colour, 0, static_cast<int>(kPenRgb.size()) - 1))];
    dl->AddCircleFilled(at, r * 1.45f, IM_COL32(255, 255, 255, 235));
    dl->AddCircleFilled(at, r * 1.22f, IM_COL32(0, 0, 0, 255));
    dl->AddCircleFilled(at, r, ImGui::GetColorU32(ImVec4(rgb[0], rgb[1], rgb[2], 1.0f)));
    dl->AddCircleFilled(at, r * 0.35f, IM_COL32(255, 255, 255, 255));
}

void draw_note_text(const PresentUi& present, double now) {
    ImGui::PushTextWrapPos(0.0f);
    ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyle().Colors[ImGuiCol_TextDisabled]);
    text_wrapped(text::trf("present.note.clock", {{"number", present.slide + 1}, {"count", present.slides},
                                                  {"time", wall_clock()}, {"elapsed", elapsed(now - present.started)}})
                     .c_str());
    ImGui::PopStyleColor();
    // The countdown to the lesson's "minutes", in the text colour (red once over time).
    if (const std::string countdown = lesson_countdown(present, now); !countdown.empty()) {
        const bool over = present.minutes * 60.0 < now - present.started;
        if (over) ImGui::PushStyleColor(ImGuiCol_Text, ImVec4(1.0f, 0.35f, 0.3f, 1.0f));
        text_wrapped(countdown.c_str());
        if (over) ImGui::PopStyleColor();
    }
    ImGui::Separator();
    text_wrapped(present.note.empty() ? text::tr("present.note.none") : present.note.c_str());
    ImGui::Separator();
    text_wrapped(present.next_title.empty() && present.slide + 1 >= present.slides
                     ? text::tr("present.note.last")
                     : text::trf("present.note.next", {{"title", present.next_title}}).c_str());
    ImGui::PopTextWrapPos();
}

Actions draw_presenter(UiState& ui, int laser_colour, double now) {
    PresentUi& present = ui.present;
    if (present.pen) pen_palette(present, ui.presentation);
    // What has no status line in presentation mode: the slide number being typed, a notice.
    if (!present.typed_slide.empty()) banner("##typed_slide", text::trf("present.typed_slide", {{"number", present.typed_slide}}));
    else if (ui.presentation && !present.notice.empty() && now - present.notice_time < kNoticeSeconds && now >= present.notice_time)
        banner("##present_notice", text::render(present.notice));
    if (present.note_shown && present.slides > 0) note_overlay(present, now);
    if (present.pointer_shown()) pointer(present, laser_colour, now);
    if (present.blank) {
        const ImVec2 size = ImGui::GetIO().DisplaySize;
        ImGui::GetForegroundDrawList()->AddRectFilled(ImVec2(0, 0), size, IM_COL32(0, 0, 0, 255));
        ImGui::SetMouseCursor(ImGuiMouseCursor_None);
    }
    return {};
}

}  // namespace attn::gui
