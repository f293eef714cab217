#include "app/gui/views/canvas/view_annotations.h"

#include <imgui.h>

#include <algorithm>
#include <cmath>

#include "app/gui/display/colormap.h"

namespace attn::gui {

std::vector<PlacedMatrix> placed_matrices(const CanvasFrame& frame, const ResultDrawn& drawn) {
    std::vector<PlacedMatrix> placed;
    const StepId id = frame.trace->steps[static_cast<size_t>(frame.step)].id;
    const std::vector<Panel>& panels = frame.model->steps[static_cast<size_t>(frame.step)].panels;
    for (size_t k = 0; k < drawn.visible.size() && k < drawn.layout.panels.size(); ++k) {
        const Panel& panel = panels[static_cast<size_t>(drawn.visible[k])];
        placed.push_back({id, drawn.visible[k], lesson::CellPart::Result, drawn.layout.panels[k].rect, panel.rows, panel.cols});
    }
    for (const ResultDrawn::Operand& o : drawn.operands)
        placed.push_back({id, o.panel, static_cast<lesson::CellPart>(o.part), o.rect, o.rows, o.cols});
    return placed;
}

namespace {

uint32_t pen_colour(int colour, float alpha = 1.0f) {
    const auto& rgb = kPenRgb[static_cast<size_t>(std::clamp(colour, 0, static_cast<int>(kPenRgb.size()) - 1))];
    return pack_rgba(Rgb{rgb[0], rgb[1], rgb[2]}, alpha);
}

void draw_one(ImDrawList* dl, const PlacedMatrix& m, const lesson::Annotation& a, float screen_h) {
    const float width = pen_width(screen_h);
    std::vector<ImVec2> points;
    for (const auto& point : a.points) {
        const Pixel at = pixel_of(m, a.cell, point);
        points.emplace_back(at[0], at[1]);
    }
    if (points.empty()) return;
    const uint32_t colour = pen_colour(a.colour);
    // A dark edge under the line keeps it readable on any cell colour.
    const uint32_t edge = IM_COL32(0, 0, 0, 150);
    if (a.kind == lesson::Annotation::Kind::Stroke || points.size() < 2) {
        if (points.size() == 1) points.push_back(ImVec2(points[0].x + 0.5f, points[0].y));
        dl->AddPolyline(points.data(), static_cast<int>(points.size()), edge, ImDrawFlags_None, width + 2.0f);
        dl->AddPolyline(points.data(), static_cast<int>(points.size()), colour, ImDrawFlags_None, width);
        return;
    }
    const ImVec2 from = points.front(), to = points.back();
    const float dx = to.x - from.x, dy = to.y - from.y, length = std::hypot(dx, dy);
    if (length < 1.0f) return;
    const float head = std::min(arrow_head_length(screen_h), length * 0.6f);
    const ImVec2 along(dx / length, dy / length), across(-along.y, along.x);
    const ImVec2 base(to.x - along.x * head, to.y - along.y * head);
    const ImVec2 left(base.x + across.x * head * 0.5f, base.y + across.y * head * 0.5f);
    const ImVec2 right(base.x - across.x * head * 0.5f, base.y - across.y * head * 0.5f);
    dl->AddLine(from, base, edge, width + 2.0f);
    dl->AddLine(from, base, colour, width);
    dl->AddTriangleFilled(to, left, right, colour);
    dl->AddTriangle(to, left, right, edge, 1.0f);
}

// The pen's mouse over the canvas window: a press starts a drawing on the cell under it,
// dragging extends it, the release keeps it.
void pen_mouse(UiState& ui, float screen_h) {
    PresentUi& present = ui.present;
    const ImGuiIO& io = ImGui::GetIO();
    const Pixel at{io.MousePos.x, io.MousePos.y};
    if (ImGui::IsWindowHovered()) ImGui::SetMouseCursor(ImGuiMouseCursor_Hand);
    if (ImGui::IsMouseClicked(ImGuiMouseButton_Left) && ImGui::IsWindowHovered()) {
        const auto kind = io.KeyShift ? lesson::Annotation::Kind::Arrow : lesson::Annotation::Kind::Stroke;
        present.drawing = start_drawing(ui.canvas.placed, at, kind, present.pen_colour);
        return;
    }
    if (!present.drawing) return;
    if (ImGui::IsMouseDown(ImGuiMouseButton_Left)) {
        if (!extend_drawing(*present.drawing, ui.canvas.placed, at, pen_width(screen_h) * 0.75f)) present.drawing.reset();
        return;
    }
    extend_drawing(*present.drawing, ui.canvas.placed, at, 0.0f);
    present.drawings_changed |= keep_drawing(ui.lesson.marks.annotations, std::move(*present.drawing));
    present.drawing.reset();
}

}  // namespace

void draw_annotations(ImDrawList* dl, const std::vector<PlacedMatrix>& placed,
                      const std::vector<lesson::Annotation>& drawings, float screen_h) {
    for (const lesson::Annotation& a : drawings)
        if (const PlacedMatrix* m = placed_matrix_of(placed, a.cell)) draw_one(dl, *m, a, screen_h);
}

void draw_canvas_drawings(UiState& ui, bool interactive) {
    const float screen_h = ImGui::GetIO().DisplaySize.y;
    if (interactive && ui.present.pen) pen_mouse(ui, screen_h);
    if (!ui.present.pen) ui.present.drawing.reset();
    ImDrawList* dl = ImGui::GetWindowDrawList();
    draw_annotations(dl, ui.canvas.placed, ui.lesson.marks.annotations, screen_h);
    if (ui.present.drawing) draw_annotations(dl, ui.canvas.placed, {*ui.present.drawing}, screen_h);
}

}  // namespace attn::gui
