#include "app/gui/views/canvas/view_canvas_cache.h"

#include <algorithm>
#include <string>

#include "app/gui/kit/test_hook.h"

namespace attn::gui {

void draw_new_cache_rows(const Painter& p, const ResultDrawn& drawn) {
    const CanvasFrame& f = *p.f;
    const Step& step = p.step(f.step);
    if (step.kind != StepKind::CacheAppend || f.trace->block.count <= 0 || f.progress < 1.0f) return;
    const StepDisplay& sd = p.display(f.step);
    const float t = std::max(2.0f, 2.0f * f.scale);
    for (size_t k = 0; k < drawn.visible.size() && k < drawn.layout.panels.size(); ++k) {
        const Panel& pn = sd.panels[static_cast<size_t>(drawn.visible[k])];
        const Rect& r = drawn.layout.panels[k].rect;
        if (pn.rows <= 0 || pn.row_dim < 0) continue;
        // Cache rows are absolute positions: the block's rows first .. first + count - 1.
        const int origin = static_cast<int>(pn.origin[static_cast<size_t>(pn.row_dim)]);
        const int first = std::clamp(f.trace->block.first - origin, 0, pn.rows);
        const int last = std::clamp(f.trace->block.first + f.trace->block.count - origin, 0, pn.rows);
        if (last <= first) continue;
        // Pooled panels keep their proportions: a row's height is the panel's over its rows.
        const float row_h = r.h / static_cast<float>(pn.rows);
        const ImVec2 a(r.x - t, r.y + row_h * static_cast<float>(first) - t), b(r.right() + t, r.y + row_h * static_cast<float>(last) + t);
        p.dl->AddRect(a, b, IM_COL32(0, 0, 0, 220), 0.0f, 0, t + 1.0f);
        p.dl->AddRect(a, b, p.pal.highlight, 0.0f, 0, t);
        if (k == 0) note_for_tests("cache_rows " + std::to_string(first + origin) + " " + std::to_string(last + origin - 1) + " of " + std::to_string(pn.rows));
    }
}

}  // namespace attn::gui
