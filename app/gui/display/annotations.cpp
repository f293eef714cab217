#include "app/gui/display/annotations.h"

#include <algorithm>
#include <cmath>

namespace attn::gui {

namespace {

bool same_matrix(const PlacedMatrix& m, const lesson::CellAnchor& anchor) {
    return m.step == anchor.step && m.panel == anchor.panel && m.part == anchor.part;
}

}  // namespace

const PlacedMatrix* placed_matrix_of(const std::vector<PlacedMatrix>& placed, const lesson::CellAnchor& anchor) {
    for (const PlacedMatrix& m : placed)
        if (same_matrix(m, anchor) && anchor.row >= 0 && anchor.col >= 0 && anchor.row < m.rows && anchor.col < m.cols) return &m;
    return nullptr;
}

std::optional<lesson::CellAnchor> cell_under(const std::vector<PlacedMatrix>& placed, Pixel at) {
    // The last placed wins: it was drawn on top.
    for (auto it = placed.rbegin(); it != placed.rend(); ++it) {
        const PlacedMatrix& m = *it;
        if (m.rows <= 0 || m.cols <= 0 || !m.rect.contains(at[0], at[1])) continue;
        lesson::CellAnchor cell;
        cell.step = m.step;
        cell.panel = m.panel;
        cell.part = m.part;
        cell.row = std::clamp(static_cast<int>((at[1] - m.rect.y) / m.cell_h()), 0, m.rows - 1);
        cell.col = std::clamp(static_cast<int>((at[0] - m.rect.x) / m.cell_w()), 0, m.cols - 1);
        return cell;
    }
    return std::nullopt;
}

std::array<float, 2> point_in_cells(const PlacedMatrix& m, const lesson::CellAnchor& anchor, Pixel at) {
    return {(at[0] - m.rect.x) / m.cell_w() - static_cast<float>(anchor.col),
            (at[1] - m.rect.y) / m.cell_h() - static_cast<float>(anchor.row)};
}

Pixel pixel_of(const PlacedMatrix& m, const lesson::CellAnchor& anchor, const std::array<float, 2>& point) {
    return {m.rect.x + (static_cast<float>(anchor.col) + point[0]) * m.cell_w(),
            m.rect.y + (static_cast<float>(anchor.row) + point[1]) * m.cell_h()};
}

float pen_width(float screen_h) { return std::max(2.0f, screen_h / 240.0f); }
float arrow_head_length(float screen_h) { return pen_width(screen_h) * 4.5f; }

std::optional<lesson::Annotation> start_drawing(const std::vector<PlacedMatrix>& placed, Pixel at,
                                                lesson::Annotation::Kind kind, int colour) {
    const std::optional<lesson::CellAnchor> cell = cell_under(placed, at);
    if (!cell) return std::nullopt;
    const PlacedMatrix* m = placed_matrix_of(placed, *cell);
    lesson::Annotation drawing;
    drawing.kind = kind;
    drawing.colour = std::clamp(colour, 0, static_cast<int>(lesson::kPenColours.size()) - 1);
    drawing.cell = *cell;
    drawing.points = {point_in_cells(*m, *cell, at)};
    return drawing;
}

bool extend_drawing(lesson::Annotation& drawing, const std::vector<PlacedMatrix>& placed, Pixel at, float min_move) {
    const PlacedMatrix* m = placed_matrix_of(placed, drawing.cell);
    if (!m || drawing.points.empty()) return false;
    const std::array<float, 2> point = point_in_cells(*m, drawing.cell, at);
    if (drawing.kind == lesson::Annotation::Kind::Arrow) {
        if (drawing.points.size() < 2) drawing.points.push_back(point);
        else drawing.points.back() = point;
        return true;
    }
    const Pixel last = pixel_of(*m, drawing.cell, drawing.points.back());
    if (std::hypot(at[0] - last[0], at[1] - last[1]) < min_move || drawing.points.size() >= lesson::kMaxStrokePoints) return true;
    drawing.points.push_back(point);
    return true;
}

bool keep_drawing(std::vector<lesson::Annotation>& drawings, lesson::Annotation drawing) {
    if (drawing.points.size() < 2 || drawings.size() >= lesson::kMaxAnnotations) return false;
    drawings.push_back(std::move(drawing));
    return true;
}

bool undo_drawing(std::vector<lesson::Annotation>& drawings) {
    if (drawings.empty()) return false;
    drawings.pop_back();
    return true;
}

bool clear_drawings(std::vector<lesson::Annotation>& drawings) {
    const bool any = !drawings.empty();
    drawings.clear();
    return any;
}

}  // namespace attn::gui
