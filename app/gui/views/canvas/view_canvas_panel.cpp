#include "app/gui/views/canvas/view_canvas_panel.h"

#include <imgui.h>

#include "app/gui/kit/cjk_wrap.h"

#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/kit/fonts_theme.h"
#include "app/gui/display/head_groups.h"
#include "app/gui/views/canvas/view_canvas.h"
#include "app/gui/views/canvas/view_canvas_follow.h"
#include "app/gui/state/follow_state.h"
#include "app/text/languages.h"

namespace attn::gui {

using text::label;
using text::tr;
using text::trf;

namespace {

// The session with the canvas's paint request carried out, for a recompute.
std::optional<Session> painted_session(const Session& session, const Trace& trace, const CanvasRequests& requests) {
    if (!requests.paint && !requests.clear_paint) return std::nullopt;
    Session edited = session;
    if (requests.clear_paint) {
        edited.painted_mask = PaintedMask{};
    } else if (!paint(edited.painted_mask, trace.config.L(), trace.config.S(), requests.paint->row, requests.paint->col,
                      requests.paint->reach)) {
        return std::nullopt;  // a key column past S (bias_k, zero_attn) is never masked
    }
    if (edited.painted_mask == session.painted_mask) return std::nullopt;
    return edited;
}

}  // namespace

CanvasFrame canvas_frame_for(const Results& results, const Session& session, const UiState& ui, const UiSettings& settings,
                             const FrameContext& ctx) {
    CanvasFrame frame;
    frame.trace = results.trace.get();
    frame.model = results.model.get();
    frame.cache = ctx.cache;
    frame.step = std::clamp(ui.playback.step(), 0, static_cast<int>(results.model->steps.size()) - 1);
    frame.progress = ui.playback.progress();
    frame.scale = ctx.scale * ctx.canvas_type;
    frame.type = ctx.canvas_type;
    frame.light = settings.light_theme;
    frame.show_values = settings.show_values;
    frame.interactive = !ctx.offscreen && !ui.present.pen;  // the pen's drags draw, they pin nothing
    frame.fonts = ctx.fonts;
    frame.show_storage = ui.show_storage;
    frame.presentation = ui.presentation;
    frame.key_beside = ctx.key_beside;
    frame.weights_as = parse_weights_as(settings.weights_as).value_or(WeightsAs::Heatmap);
    frame.overview = results.overview.get();
    frame.show_overview = ui.canvas.overview;
    if (!session.config_message.empty()) frame.notice = tr("canvas.notice_last_valid");
    else if (results.model->colour_scale.difference_from_float32)
        frame.notice = trf("canvas.notice_difference", {{"dtype", to_string(results.trace->config.dtype)}});
    if (!session.model && !results.trace->model.present()) {
        frame.painted = &session.painted_mask;
        frame.paint_blocked = text::render(painting_blocked(session.config));
    }
    return frame;
}

namespace {

// View > Overview: its click opens a trained model's layer (a session edit), and while it
// is open without thumbnails (a trace computed before it opened, a lesson's slide) the
// trace is computed again with them.
Actions overview_requests(const Results& results, const Session& session, const UiState& ui, const FrameContext& ctx,
                          const CanvasRequests& requests) {
    Actions out;
    if (requests.open_layer && session.model && *requests.open_layer != session.model_layer) {
        Session edited = session;
        edited.model_layer = *requests.open_layer;
        out.session_edit = std::move(edited);
        out.config_changed = true;
    }
    if (ui.canvas.overview && !results.overview && !ctx.offscreen && !ctx.computing && results.compute_error.empty())
        out.config_changed = true;
    return out;
}

// The head selector of small multiples, top right (the canvas keeps that corner free);
// each head in its own colour.
void draw_head_selector(const Results& results, const StepDisplay& sd, int step, UiState& ui) {
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    const float s = ImGui::GetFontSize();
    ImGui::SetCursorScreenPos(ImVec2(pos.x + size.x - s * 8.0f, pos.y + s * 0.5f));
    ImGui::SetNextItemWidth(s * 7.5f);
    const std::string preview = ui.canvas.enlarged_head < 0 ? tr("canvas.all_heads")
                                                            : trf("canvas.head", {{"head", ui.canvas.enlarged_head}});
    if (ImGui::BeginCombo("##heads", preview.c_str())) {
        if (ImGui::Selectable(label("canvas.all_heads"), ui.canvas.enlarged_head < 0)) ui.canvas.enlarged_head = -1;
        for (size_t i = 0; i < sd.panels.size(); ++i) {
            const int head = sd.panels[i].head;
            const std::string head_label = trf("canvas.head", {{"head", head}}) + "###head" + std::to_string(head);
            // Each entry in its head's colour, readable on the popup's background.
            const Rgb bg{ImGui::GetStyle().Colors[ImGuiCol_PopupBg].x, ImGui::GetStyle().Colors[ImGuiCol_PopupBg].y,
                         ImGui::GetStyle().Colors[ImGuiCol_PopupBg].z};
            ImGui::PushStyleColor(ImGuiCol_Text, pack_rgba(with_contrast(step_head_color(results.trace->config, results.trace->steps[static_cast<size_t>(step)].id, head), bg, 4.5f)));
            if (ImGui::Selectable(head_label.c_str(), ui.canvas.enlarged_head == head)) ui.canvas.enlarged_head = head;
            ImGui::PopStyleColor();
        }
        ImGui::EndCombo();
    }
}

// Why the trace could not be computed, at the bottom of the canvas.
void draw_compute_error(const Results& results, const Session& session, bool light_theme) {
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    const float s = ImGui::GetFontSize();
    // At the bottom, on the panel's own colour: it must read over the storage strip
    // or heatmaps under it, whatever its length in the language in use.
    // With files in use the cause is usually one of them: say how to drop them.
    const io::ProblemSources& files = session.sources;
    const bool has_files = !files.weights_path.empty() || !files.query_path.empty() || !files.key_path.empty() ||
                           !files.value_path.empty() || !files.mask_path.empty();
    const std::string failed = trf(has_files ? "canvas.compute_failed_files" : "canvas.compute_failed",
                                   {{"error", text::render(results.compute_error)}, {"button", tr("controls.files.forget")}});
    const float wrap = size.x - 2.0f * s;
    const float text_h = ImGui::CalcTextSize(failed.c_str(), nullptr, false, wrap).y;
    const ImVec2 top(pos.x + s, pos.y + size.y - text_h - s * 0.6f);
    ImVec4 backdrop = ImGui::GetStyle().Colors[ImGuiCol_WindowBg];
    backdrop.w = 1.0f;
    ImGui::GetWindowDrawList()->AddRectFilled(ImVec2(top.x - s * 0.4f, top.y - s * 0.3f),
                                              ImVec2(top.x + wrap + s * 0.4f, top.y + text_h + s * 0.3f),
                                              ImGui::ColorConvertFloat4ToU32(backdrop));
    ImGui::SetCursorScreenPos(top);
    ImGui::PushStyleColor(ImGuiCol_Text, to_imvec4(theme_colors(light_theme).error));
    ImGui::PushTextWrapPos(size.x - s);
    text_wrapped(failed.c_str());
    ImGui::PopTextWrapPos();
    ImGui::PopStyleColor();
}

}  // namespace

float presentation_cell(const AppState& state, const UiState& ui, const FrameContext& ctx, const Rect& area, bool key_beside) {
    if (!state.results.trace || !state.results.model || state.results.model->steps.empty()) return 0.0f;
    FrameContext beside = ctx;
    beside.key_beside = key_beside;
    const CanvasFrame frame = canvas_frame_for(state.results, state.session, ui, state.settings, beside);
    return canvas_result_cell(frame, ui.canvas, area);
}

PresentationFit fit_presentation(const AppState& state, const UiState& ui, const FrameContext& ctx, float w, float h,
                                 float header_h, float footer_h, float side_w) {
    PresentationFit fit;
    // The picture's cells with the canvas's type at `type`, the explanation where it gives
    // the bigger picture.
    const auto cell = [&](float type, float header, float footer, bool& beside) {
        FrameContext c = ctx;
        c.canvas_type = type;
        const float under = presentation_cell(state, ui, c, Rect{0, header, w, h - header - footer}, false);
        const float side = presentation_cell(state, ui, c, Rect{0, header, w - side_w, h - header}, true);
        beside = side > under * 1.05f;
        return beside ? side : under;
    };
    // With a UI scale u above 1 the picture should keep the cells it has at 1 (its type,
    // title and explanation u times smaller): the canvas's own type grows only as far as
    // that allows (never below its size at 1); when no size reaches it, the one with the
    // biggest cells. The title and explanation take the larger type.
    const float u = std::max(1.0f, state.settings.ui_scale);
    bool beside = false;
    const float wanted = u > 1.0f ? cell(1.0f / u, header_h / u, footer_h / u, beside) - 0.5f : 0.0f;
    std::vector<float> types;
    for (float type = 1.0f; type > 1.0f / u; type *= 0.92f) types.push_back(type);
    types.push_back(1.0f / u);
    float best = -1.0f;
    for (const float type : types) {
        const float got = cell(type, header_h, footer_h, beside);
        if (got > best * 1.01f) {
            best = got;
            fit = PresentationFit{beside, type};
        }
        if (got >= wanted) return PresentationFit{beside, type};
    }
    return fit;
}

float draw_presentation_key(const AppState& state, const UiState& ui, const FrameContext& ctx, const Rect& area) {
    if (!state.results.trace || !state.results.model || state.results.model->steps.empty()) return 0.0f;
    const CanvasFrame frame = canvas_frame_for(state.results, state.session, ui, state.settings, ctx);
    return draw_canvas_key(frame, ui.canvas, area);
}

Actions draw_canvas_panel(const Results& results, const Session& session, UiState& ui, const UiSettings& settings,
                          const FrameContext& ctx, bool decorations) {
    const ImVec2 pos = ImGui::GetWindowPos(), size = ImGui::GetWindowSize();
    if (!ctx.offscreen) {
        // A "canvas only" export is laid out at the size the canvas has on screen.
        ui.canvas.shown_w = size.x;
        ui.canvas.shown_h = size.y;
    }
    if (!results.trace || !results.model) {
        ImGui::SetCursorPos(ImVec2(20, 20));
        if (!results.compute_error.empty()) text_wrapped(text::render(results.compute_error).c_str());
        else ImGui::TextDisabled("%s", tr("canvas.computing_first"));
        return {};
    }
    CanvasFrame frame = canvas_frame_for(results, session, ui, settings, ctx);
    // A followed cell's strip takes the bottom of the canvas (Follow, view_canvas_follow.h).
    refresh_follow(ui.canvas.follow, results);
    const float follow_h = follow_strip_height(results, ui.canvas, size.x, frame.interactive);
    const Rect area{pos.x, pos.y, size.x, size.y - follow_h};
    const float s = ImGui::GetFontSize();
    // Head selector for small multiples, top right (the canvas keeps that corner free).
    const StepDisplay& sd = results.model->steps[static_cast<size_t>(frame.step)];
    // It must not cover the caption (and notice) drawn on the same line.
    const std::string caption = canvas_caption(frame, ui.canvas) + (frame.notice.empty() ? "" : "    " + frame.notice);
    const bool head_selector = decorations && !ui.canvas.overview && ImGui::CalcTextSize(caption.c_str()).x + s * 9.5f < size.x &&
                               sd.arrangement == Arrangement::Grid && sd.panels.size() > 1;
    if (head_selector) frame.top_right_reserved = s * 8.5f;
    const CanvasRequests requests = draw_canvas(frame, ui.canvas, area);
    ui.elements.record("storage", ui.canvas.storage_rect);  // a tour slide can point at it
    if (frame.interactive) draw_follow_menu(ui.canvas);
    draw_follow_strip(results, ui.canvas, Rect{area.x, area.bottom(), area.w, follow_h}, frame.interactive);
    Actions out;
    if (std::optional<Session> edited = painted_session(session, *results.trace, requests)) {
        out.session_edit = std::move(edited);
        out.config_changed = true;
    }
    out |= overview_requests(results, session, ui, ctx, requests);

    if (decorations) {
        if (head_selector) draw_head_selector(results, sd, frame.step, ui);
        if (!results.compute_error.empty()) draw_compute_error(results, session, settings.light_theme);
        if (ctx.computing) {
            const int phase = static_cast<int>(ctx.now * 4.0) % 4;  // 0 to 3 dots, four times a second
            const std::string busy = tr("canvas.computing") + std::string(static_cast<size_t>(phase), '.');
            ImGui::SetCursorScreenPos(ImVec2(pos.x + size.x - s * 18.0f, pos.y + s * 0.6f));
            ImGui::TextColored(to_imvec4(theme_colors(settings.light_theme).busy), "%s", busy.c_str());
        }
    }
    return out;
}

}  // namespace attn::gui
