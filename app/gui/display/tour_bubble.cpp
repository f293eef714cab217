#include "app/gui/display/tour_bubble.h"

#include <algorithm>

namespace attn::gui {
namespace {

float overlap_area(const Rect& a, const Rect& b) {
    const float w = std::min(a.right(), b.right()) - std::max(a.x, b.x);
    const float h = std::min(a.bottom(), b.bottom()) - std::max(a.y, b.y);
    return w > 0.0f && h > 0.0f ? w * h : 0.0f;
}

bool inside(const Rect& outer, const Rect& r) {
    return r.x >= outer.x && r.y >= outer.y && r.right() <= outer.right() && r.bottom() <= outer.bottom();
}

// Keeps `v` (a bubble's edge from lo) within lo .. hi - size when it can.
float clamp_edge(float v, float lo, float hi, float size) { return std::max(lo, std::min(v, hi - size)); }

}  // namespace

Rect bounding_rect(const std::vector<Rect>& rects) {
    if (rects.empty()) return Rect{};
    float x0 = rects.front().x, y0 = rects.front().y, x1 = rects.front().right(), y1 = rects.front().bottom();
    for (const Rect& r : rects) {
        x0 = std::min(x0, r.x);
        y0 = std::min(y0, r.y);
        x1 = std::max(x1, r.right());
        y1 = std::max(y1, r.bottom());
    }
    return Rect{x0, y0, x1 - x0, y1 - y0};
}

bool rects_overlap(const Rect& a, const Rect& b) { return overlap_area(a, b) > 0.0f; }

Rect place_bubble(const Rect& screen, const Rect& target, float gap, const std::vector<float>& widths,
                  const std::function<float(float)>& height_of) {
    // The screen less a margin: the bubble never touches its edges.
    const Rect room{screen.x + gap, screen.y + gap, screen.w - 2.0f * gap, screen.h - 2.0f * gap};
    for (const float w : widths) {
        const float h = height_of(w);
        const float beside_y = clamp_edge(target.y, room.y, room.bottom(), h);
        const float over_x = clamp_edge(target.x + (target.w - w) * 0.5f, room.x, room.right(), w);
        const Rect candidates[] = {
            {target.right() + gap, beside_y, w, h},     // right
            {target.x - gap - w, beside_y, w, h},       // left
            {over_x, target.bottom() + gap, w, h},      // below
            {over_x, target.y - gap - h, w, h},         // above
        };
        for (const Rect& c : candidates)
            if (inside(room, c) && !rects_overlap(c, target)) return c;
    }
    const float w = widths.empty() ? room.w : std::min(widths.back(), room.w);
    const float h = std::min(height_of(w), room.h);
    Rect best{room.x, room.y, w, h};
    for (const Rect& corner : {Rect{room.right() - w, room.y, w, h}, Rect{room.x, room.bottom() - h, w, h},
                               Rect{room.right() - w, room.bottom() - h, w, h}})
        if (overlap_area(corner, target) < overlap_area(best, target)) best = corner;
    return best;
}

}  // namespace attn::gui
