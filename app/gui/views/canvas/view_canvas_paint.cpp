#include "app/gui/views/canvas/view_canvas_paint.h"

#include <imgui.h>

#include <algorithm>

#include "app/text/languages.h"

namespace attn::gui {

bool paint_offered(const CanvasFrame& frame) {
    if (!frame.interactive || !frame.painted || !frame.trace || frame.trace->model.present()) return false;
    if (frame.step < 0 || frame.step >= static_cast<int>(frame.trace->steps.size())) return false;
    return step_info(frame.trace->steps[static_cast<size_t>(frame.step)].id).paintable();
}

PaintReach paint_reach(bool shift, bool ctrl, bool alt) {
    if (shift) return PaintReach::Row;
    if (ctrl || alt) return PaintReach::Column;
    return PaintReach::Cell;
}

float paint_bar_height(const Painter& p) {
    if (!paint_offered(*p.f)) return 0.0f;
    return ImGui::GetFrameHeight() + 6.0f * p.f->scale;
}

bool draw_paint_bar(const Painter& p, CanvasUi& ui, const Rect& area) {
    if (!paint_offered(*p.f) || area.h <= 0.0f) return false;
    const CanvasFrame& f = *p.f;
    ImGui::SetCursorScreenPos(ImVec2(area.x, area.y));
    const bool blocked = !f.paint_blocked.empty();
    bool clear = false;
    ImGui::PushID("mask_paint");
    if (blocked) {
        ui.paint_mode = false;
        ImGui::TextColored(ImGui::ColorConvertU32ToFloat4(p.pal.notice), "%s", f.paint_blocked.c_str());
        ImGui::PopID();
        return false;
    }
    ImGui::Checkbox(text::label("canvas.paint.toggle"), &ui.paint_mode);
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text::tr("canvas.paint.tip"));
    ImGui::SameLine();
    const int painted = f.painted->count();
    if (painted > 0) {
        if (ImGui::SmallButton(text::trf("canvas.paint.clear", {{"cells", painted}}).c_str())) clear = true;
        ImGui::SameLine();
    }
    const StepId id = f.trace->steps[static_cast<size_t>(f.step)].id;
    // Before the mask is applied the painted cells are only marked; from attn_masked on
    // the learner sees their effect.
    const char* where = step_info(id).shows_masked_rows() ? "canvas.paint.hint_after" : "canvas.paint.hint_before";
    // The longest wording that fits the rest of the line (the checkbox's tooltip says it all).
    const float room = area.right() - ImGui::GetCursorScreenPos().x;
    for (const char* key : {ui.paint_mode ? "canvas.paint.how" : where, ui.paint_mode ? "canvas.paint.how_short" : ""}) {
        if (*key == 0) break;
        const char* words = text::tr(key);
        if (ImGui::CalcTextSize(words).x > room) continue;
        ImGui::TextDisabled("%s", words);
        break;
    }
    ImGui::PopID();
    return clear;
}

void draw_painted_cells(const Painter& p, const ResultDrawn& drawn) {
    const CanvasFrame& f = *p.f;
    if (!f.painted || !f.painted->any() || f.progress < 1.0f || !paint_offered(f)) return;
    const StepDisplay& sd = p.display(f.step);
    const int L = f.trace->config.L(), S = f.trace->config.S();
    const float s = f.scale;
    for (size_t k = 0; k < drawn.visible.size() && k < drawn.layout.panels.size(); ++k) {
        const Panel& pn = sd.panels[static_cast<size_t>(drawn.visible[k])];
        const PanelPlace& place = drawn.layout.panels[k];
        if (place.cell_w < 5.0f * s || place.cell_h < 5.0f * s) continue;
        const float corner = std::min(std::min(place.cell_w, place.cell_h) * 0.35f, 12.0f * s);
        for (int i = 0; i < std::min(pn.rows, L); ++i)
            for (int j = 0; j < std::min(pn.cols, S); ++j) {
                if (!f.painted->at(i, j)) continue;
                // A triangle in the cell's top-left corner: "painted by you", on any cell colour.
                const float x = place.rect.x + static_cast<float>(j) * place.cell_w;
                const float y = place.rect.y + static_cast<float>(i) * place.cell_h;
                p.dl->AddTriangleFilled(ImVec2(x, y), ImVec2(x + corner + 1.5f, y), ImVec2(x, y + corner + 1.5f), IM_COL32(0, 0, 0, 220));
                p.dl->AddTriangleFilled(ImVec2(x, y), ImVec2(x + corner, y), ImVec2(x, y + corner), p.pal.highlight);
            }
    }
}

}  // namespace attn::gui
