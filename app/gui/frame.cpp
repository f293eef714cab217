// [SECTION] index
//   splitter           draggable bars between the side panels
//   canvas_window      the canvas with its head selector, status and errors
//   presentation       title + canvas + explanation, large type, no controls
//   canvas_alone       a canvas-only export: the step's title above the canvas
//   status_line        the one-line strip at the bottom: messages, export progress
//   draw_frame         the normal layout: resizable panels around the canvas
#include "app/gui/frame.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/gui/fonts_theme.h"
#include "app/gui/views/view_canvas.h"
#include "app/gui/views/view_controls.h"
#include "app/gui/views/view_explain.h"
#include "app/gui/views/view_inspector.h"
#include "app/gui/views/view_menu.h"
#include "app/gui/views/view_timeline.h"
#include "app/text/languages.h"
#include "app/text/step_text.h"

namespace attn::gui {
namespace {

using text::label;
using text::tr;
using text::trf;

constexpr ImGuiWindowFlags kPanelFlags =
    ImGuiWindowFlags_NoMove | ImGuiWindowFlags_NoResize | ImGuiWindowFlags_NoCollapse | ImGuiWindowFlags_NoSavedSettings;

void place(float x, float y, float w, float h) {
    ImGui::SetNextWindowPos(ImVec2(x, y));
    ImGui::SetNextWindowSize(ImVec2(std::max(1.0f, w), std::max(1.0f, h)));
}

// A bar between two panels that can be dragged (vertical: sideways, else up and down).
// Returns true while dragged, with the mouse's movement since the press in `delta`.
bool splitter(const char* id, float x, float y, float w, float h, bool vertical, float& delta) {
    place(x, y, w, h);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::PushStyleVar(ImGuiStyleVar_WindowMinSize, ImVec2(1, 1));
    ImGui::Begin(id, nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar |
                                  ImGuiWindowFlags_NoBackground | ImGuiWindowFlags_NoScrollWithMouse);
    ImGui::PopStyleVar(2);
    ImGui::SetCursorScreenPos(ImVec2(x, y));
    ImGui::InvisibleButton("##bar", ImVec2(std::max(1.0f, w), std::max(1.0f, h)));
    const bool hovered = ImGui::IsItemHovered(), active = ImGui::IsItemActive();
    if (hovered || active) ImGui::SetMouseCursor(vertical ? ImGuiMouseCursor_ResizeEW : ImGuiMouseCursor_ResizeNS);
    const ImU32 color = ImGui::GetColorU32(active ? ImGuiCol_SeparatorActive : (hovered ? ImGuiCol_SeparatorHovered : ImGuiCol_Separator));
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(x, y), ImVec2(x + w, y + h), color);
    const ImVec2 drag = ImGui::GetMouseDragDelta(ImGuiMouseButton_Left, 0.0f);
    delta = vertical ? drag.x : drag.y;
    ImGui::End();
    if (!active) return false;
    ImGui::ResetMouseDragDelta(ImGuiMouseButton_Left);
    return true;
}

// The canvas and what sits on it: errors, "computing...", the head selector.
void canvas_window(AppState& state, const FrameContext& ctx, float x, float y, float w, float h, bool decorations) {
    place(x, y, w, h);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(0, 0));
    ImGui::Begin("Canvas", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar |
                                        ImGuiWindowFlags_NoScrollWithMouse | ImGuiWindowFlags_NoBringToFrontOnFocus);
    ImGui::PopStyleVar();
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    if (!ctx.offscreen) {
        // A "canvas only" export is laid out at the size the canvas has on screen.
        state.canvas.shown_w = size.x;
        state.canvas.shown_h = size.y;
    }
    if (!state.trace || !state.model) {
        ImGui::SetCursorPos(ImVec2(20, 20));
        if (!state.compute_error.empty()) ImGui::TextWrapped("%s", state.compute_error.c_str());
        else ImGui::TextDisabled("%s", tr("canvas.computing_first"));
        ImGui::End();
        return;
    }
    CanvasFrame frame;
    frame.trace = state.trace.get();
    frame.model = state.model.get();
    frame.cache = ctx.cache;
    frame.step = std::clamp(state.playback.step(), 0, static_cast<int>(state.model->steps.size()) - 1);
    frame.progress = state.playback.progress();
    frame.scale = ctx.scale;
    frame.light = state.settings.light_theme;
    frame.show_values = state.settings.show_values;
    frame.interactive = !ctx.offscreen;
    frame.fonts = ctx.fonts;
    frame.show_storage = state.show_storage;
    if (!state.config_message.empty()) frame.notice = tr("canvas.notice_last_valid");
    const Rect area{pos.x, pos.y, size.x, size.y};
    const float s = ImGui::GetFontSize();
    // Head selector for small multiples, top right (the canvas keeps that corner free).
    const StepDisplay& sd = state.model->steps[static_cast<size_t>(frame.step)];
    // It must not cover the caption (and notice) drawn on the same line.
    const std::string caption = canvas_caption(frame, state.canvas) + (frame.notice.empty() ? "" : "    " + frame.notice);
    const bool head_selector = decorations && ImGui::CalcTextSize(caption.c_str()).x + s * 9.5f < size.x &&
                               sd.arrangement == Arrangement::Grid && sd.panels.size() > 1;
    if (head_selector) frame.top_right_reserved = s * 8.5f;
    draw_canvas(frame, state.canvas, area);

    if (decorations) {
        if (head_selector) {
            ImGui::SetCursorScreenPos(ImVec2(pos.x + size.x - s * 8.0f, pos.y + s * 0.5f));
            ImGui::SetNextItemWidth(s * 7.5f);
            const std::string preview = state.canvas.enlarged_head < 0 ? tr("canvas.all_heads")
                                                                       : trf("canvas.head", {{"head", state.canvas.enlarged_head}});
            if (ImGui::BeginCombo("##heads", preview.c_str())) {
                if (ImGui::Selectable(label("canvas.all_heads"), state.canvas.enlarged_head < 0)) state.canvas.enlarged_head = -1;
                for (size_t i = 0; i < sd.panels.size(); ++i) {
                    const int head = sd.panels[i].head;
                    const std::string head_label = trf("canvas.head", {{"head", head}}) + "###head" + std::to_string(head);
                    // Each entry in its head's colour, readable on the popup's background.
                    const Rgb bg{ImGui::GetStyle().Colors[ImGuiCol_PopupBg].x, ImGui::GetStyle().Colors[ImGuiCol_PopupBg].y,
                                 ImGui::GetStyle().Colors[ImGuiCol_PopupBg].z};
                    ImGui::PushStyleColor(ImGuiCol_Text, pack_rgba(with_contrast(head_color(head), bg, 4.5f)));
                    if (ImGui::Selectable(head_label.c_str(), state.canvas.enlarged_head == head)) state.canvas.enlarged_head = head;
                    ImGui::PopStyleColor();
                }
                ImGui::EndCombo();
            }
        }
        if (!state.compute_error.empty()) {
            ImGui::SetCursorScreenPos(ImVec2(pos.x + s, pos.y + size.y - s * 3.2f));
            ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(theme_colors(state.settings.light_theme).error));
            ImGui::PushTextWrapPos(size.x - s);
            ImGui::TextWrapped("%s", trf("canvas.compute_failed", {{"error", state.compute_error}}).c_str());
            ImGui::PopTextWrapPos();
            ImGui::PopStyleColor();
        }
        if (ctx.computing) {
            const int phase = static_cast<int>(ctx.now * 4.0) % 4;  // 0 to 3 dots, four times a second
            const std::string busy = tr("canvas.computing") + std::string(static_cast<size_t>(phase), '.');
            ImGui::SetCursorScreenPos(ImVec2(pos.x + size.x - s * 18.0f, pos.y + s * 0.6f));
            ImGui::TextColored(to_imvec4(theme_colors(state.settings.light_theme).busy), "%s", busy.c_str());
        }
    }
    ImGui::End();
}

void presentation(AppState& state, const FrameContext& ctx, float w, float h) {
    const float s = ctx.fonts.large ? ctx.fonts.large->FontSize : 26.0f;
    const float r = ImGui::GetFontSize();
    const ImVec2 pad = ImGui::GetStyle().WindowPadding;
    const float header_h = s * 1.25f + r * 1.5f + pad.y * 2.0f;
    const float footer_h = r * 3.6f + pad.y * 2.0f;
    place(0, 0, w, header_h);
    ImGui::Begin("##present_header", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    if (state.trace && !state.trace->steps.empty()) {
        const int index = state.playback.step();
        const text::StepText words = text::describe_step(state.trace->steps[static_cast<size_t>(index)], state.trace->config);
        ImGui::PushFont(ctx.fonts.large);
        ImGui::Text("%d / %zu   %s", index + 1, state.trace->steps.size(), words.title.c_str());
        ImGui::PopFont();
        ImGui::TextColored(to_imvec4(theme_colors(state.settings.light_theme).formula), "%s", words.formula.c_str());
    }
    ImGui::End();
    canvas_window(state, ctx, 0, header_h, w, h - header_h - footer_h, false);
    place(0, h - footer_h, w, footer_h);
    ImGui::Begin("##present_footer", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    if (state.trace && !state.trace->steps.empty()) {
        const Step& step = state.trace->steps[static_cast<size_t>(state.playback.step())];
        ImGui::PushTextWrapPos(w - 10.0f);
        ImGui::TextWrapped("%s", text::describe_step(step, state.trace->config).explanation.c_str());
        ImGui::PopTextWrapPos();
    }
    ImGui::End();
}

// The title strip of a canvas-only export (kCanvasTitleEm large-font heights), so the
// picture stands alone on a slide: "5 / 17  Scores: Q K^T per head" and the formula.
void canvas_alone(AppState& state, const FrameContext& ctx, float w, float h) {
    const float large = ctx.fonts.large ? ctx.fonts.large->FontSize : 26.0f;
    const float title_h = std::min(h * 0.5f, large * kCanvasTitleEm);
    place(0, 0, w, title_h);
    ImGui::Begin("##canvas_title", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    if (state.trace && !state.trace->steps.empty()) {
        const int index = std::clamp(state.playback.step(), 0, static_cast<int>(state.trace->steps.size()) - 1);
        const text::StepText words = text::describe_step(state.trace->steps[static_cast<size_t>(index)], state.trace->config);
        ImGui::PushFont(ctx.fonts.large);
        const std::string title = std::to_string(index + 1) + " / " + std::to_string(state.trace->steps.size()) + "   " + words.title;
        ImGui::SetCursorPosY((title_h - ImGui::GetFontSize()) * 0.5f);
        ImGui::TextUnformatted(title.c_str());
        const float title_end = ImGui::GetItemRectMax().x;
        ImGui::PopFont();
        // The formula on the right when it fits beside the title.
        const float formula_w = ImGui::CalcTextSize(words.formula.c_str()).x;
        const float pad = ImGui::GetStyle().WindowPadding.x;
        if (title_end + formula_w + pad * 4.0f < w) {
            ImGui::SetCursorPos(ImVec2(w - formula_w - pad, (title_h - ImGui::GetFontSize()) * 0.5f));
            ImGui::TextColored(to_imvec4(theme_colors(state.settings.light_theme).formula), "%s", words.formula.c_str());
        }
    }
    ImGui::End();
    canvas_window(state, ctx, 0, title_h, w, h - title_h, false);
}

// Messages (an export finished, a file was written) and the progress of "export all
// steps"; otherwise "ready". Exports report here, never inside a view.
void status_line(const AppState& state, const FrameContext& ctx, float y, float w, float h) {
    place(0, y, w, h);
    ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(ImGui::GetFontSize() * 0.5f, (h - ImGui::GetFontSize()) * 0.5f));
    ImGui::Begin("##status_line", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    ImGui::PopStyleVar();
    const ExportProgress& progress = state.export_progress;
    if (progress.active) {
        const float fraction = progress.total > 0 ? static_cast<float>(progress.next) / static_cast<float>(progress.total) : 0.0f;
        const std::string line = trf("status.exporting", {{"step", std::min(progress.next + 1, progress.total)},
                                                          {"total", progress.total},
                                                          {"folder", progress.folder}});
        ImGui::ProgressBar(fraction, ImVec2(ImGui::GetFontSize() * 8.0f, ImGui::GetFontSize()), "");
        ImGui::SameLine();
        ImGui::TextUnformatted(line.c_str());
    } else if (!state.status.empty() && ctx.now - state.status_time < 8.0 && ctx.now >= state.status_time) {
        ImGui::TextUnformatted(state.status.c_str());
    } else {
        ImGui::TextDisabled("%s", tr("status.ready"));
    }
    ImGui::End();
}

// First run: how to move through the lesson, until dismissed (remembered in settings).
void first_run_hint(AppState& state, float x, float y, float w) {
    if (state.settings.hint_seen || !state.trace) return;
    if (state.playback.step() != 0) {  // they found their way: no need to tell them
        state.settings.hint_seen = true;
        return;
    }
    const float fs = ImGui::GetFontSize();
    const float hint_w = std::min(w - fs, fs * 26.0f);
    ImGui::SetNextWindowPos(ImVec2(x + (w - hint_w) * 0.5f, y), ImGuiCond_Always, ImVec2(0.0f, 1.0f));
    ImGui::SetNextWindowSize(ImVec2(hint_w, 0.0f));
    ImGui::SetNextWindowBgAlpha(0.94f);
    ImGui::Begin("##first_run_hint", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_AlwaysAutoResize |
                                                  ImGuiWindowFlags_NoFocusOnAppearing);
    ImGui::TextWrapped("%s", tr("hint.first_run"));
    if (ImGui::Button(label("hint.got_it"))) state.settings.hint_seen = true;
    ImGui::SameLine();
    ImGui::TextDisabled("%s", tr("hint.keyboard"));
    ImGui::End();
}

}  // namespace

FrameActions draw_frame(AppState& state, const FrameContext& ctx) {
    FrameActions out;
    ImVec2 display = ImGui::GetIO().DisplaySize;
    if (display.x <= 0.0f || display.y <= 0.0f) return out;

    if (ctx.canvas_only) {
        canvas_alone(state, ctx, display.x, display.y);
        return out;
    }
    if (state.presentation || ctx.presentation_header) {
        presentation(state, ctx, display.x, display.y);
        return out;
    }

    float top = 0.0f;
    if (!ctx.offscreen) {
        const MenuResult menu = draw_menu(state);
        const MenuResult dialogs = draw_dialogs(state);
        out.config_changed = menu.config_changed || dialogs.config_changed;
        out.theme_changed = menu.theme_changed;
        out.language_changed = menu.language_changed;

        out.toggle_presentation = menu.toggle_presentation;
        out.toggle_fullscreen = menu.toggle_fullscreen;
        out.quit = menu.quit;
        out.export_request = menu.export_request ? menu.export_request : dialogs.export_request;
    } else {
        // A whole-window export shows the menu bar as the window does (no mouse: nothing opens).
        AppState inert = state;
        draw_menu(inert);
    }
    top = ImGui::GetFrameHeight();
    const float status_h = ImGui::GetFontSize() * 1.6f;
    const ImVec2 full = display;
    display.y = std::max(top + 1.0f, display.y - status_h);
    const float fs = ImGui::GetFontSize();
    UiSettings& ui = state.settings;
    const SidePanels side = side_panels(display.x, display.y - top, fs, ui.left_panel_em, ui.right_panel_em, ui.explain_fraction);
    // Splitter bars sit in gaps between the panels (no overlap, so window order never hides them).
    const float bar = ctx.offscreen ? 0.0f : std::max(4.0f, fs * 0.3f);
    const float left_w = side.left, right_w = side.right;
    const float timeline_h = ImGui::GetFrameHeightWithSpacing() * 2.0f + ImGui::GetStyle().WindowPadding.y * 2.0f + fs * 0.6f;
    const float mid_x = left_w + bar;
    const float mid_w = std::max(1.0f, display.x - left_w - right_w - 2.0f * bar);
    const float right_x = mid_x + mid_w + bar;
    const float body_h = std::max(1.0f, display.y - top - timeline_h);
    const float explain_h = side.explain_h;
    if (!ctx.offscreen) {
        // Dragging changes the saved sizes (in font heights, so they follow the UI scale).
        float dx = 0.0f;
        if (!side.left_collapsed && splitter("##split_left", left_w, top, bar, display.y - top, true, dx)) ui.left_panel_em = std::clamp((left_w + dx) / fs, 10.0f, 60.0f);
        if (splitter("##split_right", right_x - bar, top, bar, display.y - top, true, dx)) ui.right_panel_em = std::clamp((right_w - dx) / fs, 10.0f, 60.0f);
        const float column_h = std::max(1.0f, display.y - top);
        if (splitter("##split_explain", right_x, top + explain_h, right_w, bar, false, dx)) {
            ui.explain_fraction = std::clamp((explain_h + dx) / column_h, 0.15f, 0.85f);
        }
    }

    canvas_window(state, ctx, mid_x, top, mid_w, body_h, true);

    if (side.left_collapsed) {
        // A narrow tab; the controls open over the canvas and close with the tab again.
        place(0, top, left_w, display.y - top);
        ImGui::PushStyleVar(ImGuiStyleVar_WindowPadding, ImVec2(2, 4));
        ImGui::Begin("##controls_tab", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
        ImGui::PopStyleVar();
        if (ImGui::Button(state.controls_open ? "<##tab" : ">##tab", ImVec2(-1.0f, fs * 3.0f))) state.controls_open = !state.controls_open;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr(state.controls_open ? "controls.tab.hide" : "controls.tab.show"));
        ImGui::End();
    }
    if (!side.left_collapsed || state.controls_open) {
        const float controls_w = side.left_collapsed ? std::min(fs * 20.0f, display.x * 0.6f) : left_w;
        place(side.left_collapsed ? left_w : 0.0f, top, controls_w, display.y - top);
        ImGui::Begin(label("window.controls"), nullptr, kPanelFlags | ImGuiWindowFlags_NoScrollbar);
        // The controls scroll; the presentation button stays in sight below them.
        // NavFlattened: Tab walks from the controls to the button below as one panel.
        ImGui::BeginChild("##controls_body", ImVec2(0.0f, -ImGui::GetFrameHeightWithSpacing()), false,
                          ImGuiWindowFlags_NavFlattened);
        const ControlsResult controls = draw_controls(state, ctx.computing);
        ImGui::EndChild();
        out.config_changed |= controls.config_changed;
        out.scale_changed |= controls.scale_changed;
        out.theme_changed |= controls.theme_changed;
        if (ImGui::Button(label("controls.presentation"), ImVec2(-1.0f, 0.0f))) out.toggle_presentation = true;
        ImGui::End();
    }

    place(mid_x, top + body_h, mid_w, timeline_h);
    ImGui::Begin("Timeline", nullptr, kPanelFlags | ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoScrollbar);
    draw_timeline(state);
    ImGui::End();
    if (!ctx.offscreen) first_run_hint(state, mid_x, top + body_h - fs * 0.5f, mid_w);

    place(right_x, top, right_w, explain_h);
    ImGui::Begin(label("window.explanation"), nullptr, kPanelFlags);
    draw_explanation(state, ctx.fonts, false);
    ImGui::End();
    const float inspector_y = top + explain_h + bar;
    place(right_x, inspector_y, right_w, display.y - inspector_y);
    ImGui::Begin(label("window.inspector"), nullptr, kPanelFlags);

    draw_inspector(state);
    ImGui::End();
    status_line(state, ctx, display.y, full.x, full.y - display.y);
    return out;
}

}  // namespace attn::gui
