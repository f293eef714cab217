#include "app/gui/views/view_storage.h"

#include <algorithm>
#include <cmath>

#include "app/gui/animation.h"

namespace attn::gui {
namespace {

std::string strides_text(const std::vector<int64_t>& strides) {
    std::string s = "(";
    for (size_t i = 0; i < strides.size(); ++i) s += (i ? ", " : "") + std::to_string(strides[i]);
    return s + ")";
}

void draw_bins(const Painter& p, const StorageStrip& strip, const Rect& r, float alpha) {
    const int n = static_cast<int>(strip.bins.size());
    if (n == 0 || alpha <= 0.0f) return;
    const float w = r.w / static_cast<float>(n);
    int start = 0;
    // One rectangle per run of equal colour keeps the strip cheap at any size.
    for (int i = 1; i <= n; ++i) {
        if (i < n && strip.bins[static_cast<size_t>(i)] == strip.bins[static_cast<size_t>(start)]) continue;
        const int h = strip.bins[static_cast<size_t>(start)];
        uint32_t color;
        if (h >= 0) color = pack_rgba(head_color(h), alpha);
        else if (h == -2) color = pack_rgba(Rgb{0.55f, 0.57f, 0.62f}, alpha);
        else if (h == -3) color = pack_rgba(Rgb{0.80f, 0.80f, 0.82f}, alpha * 0.8f);
        else color = (p.pal.empty_cell & 0x00FFFFFFu) | (static_cast<uint32_t>(alpha * 255.0f) << 24);
        p.dl->AddRectFilled(ImVec2(r.x + w * static_cast<float>(start), r.y), ImVec2(r.x + w * static_cast<float>(i), r.bottom()), color);
        start = i;
    }
    // Element boundaries when each element is wide enough to see.
    if (strip.storage_elements == n && w >= 6.0f) {
        for (int i = 1; i < n; ++i) {
            const float x = r.x + w * static_cast<float>(i);
            p.dl->AddLine(ImVec2(x, r.y), ImVec2(x, r.bottom()), p.pal.background);
        }
    }
}

}  // namespace

void draw_storage_strip(const Painter& p, const Rect& area) {
    const StepDisplay& sd = p.display(p.f->step);
    const StorageStrip& strip = sd.strip;
    if (strip.storage_elements == 0) return;
    const StepDisplay* from = sd.from_step >= 0 ? &p.display(sd.from_step) : nullptr;
    const float t = ease(p.f->progress);
    const bool animating = p.f->progress < 1.0f && from;
    const bool same_buffer = from && from->strip.buffer_id == strip.buffer_id;

    std::string info = "storage buffer #" + std::to_string(strip.buffer_id) + ": " +
                       std::to_string(strip.storage_elements) + " floats   offset " + std::to_string(strip.offset) +
                       "   strides " + strides_text(strip.strides) + (strip.contiguous ? "   contiguous" : "   NOT contiguous");
    if (!strip.shares_with.empty()) info += "   same buffer as " + strip.shares_with + " (view: 0 bytes copied)";
    else if (from) info += "   new buffer (values written)";
    p.text(p.f->fonts.small, ImVec2(area.x, area.y), p.pal.dim_text, info);

    const float arc_h = 10.0f * p.f->scale;
    const Rect bar{area.x, area.y + p.small_size() + 4.0f * p.f->scale + arc_h, area.w,
                   std::max(4.0f, area.h - p.small_size() - 6.0f * p.f->scale - arc_h)};
    if (animating && !same_buffer) {
        // A new buffer is written front to back while the step computes.
        p.dl->AddRectFilled(ImVec2(bar.x, bar.y), ImVec2(bar.right(), bar.bottom()), p.pal.empty_cell);
        p.dl->PushClipRect(ImVec2(bar.x, bar.y), ImVec2(bar.x + bar.w * p.f->progress, bar.bottom()), true);
        draw_bins(p, strip, bar, 1.0f);
        p.dl->PopClipRect();
    } else {
        draw_bins(p, strip, bar, 1.0f);
    }
    p.dl->AddRect(ImVec2(bar.x - 1, bar.y - 1), ImVec2(bar.right() + 1, bar.bottom() + 1), p.pal.frame);

    // Arcs from each of the first logical elements to the next: short hops when
    // contiguous, long jumps after a transpose.
    std::vector<float> xs;
    const auto x_of = [&](int64_t pos) {
        return bar.x + (static_cast<float>(pos) + 0.5f) / static_cast<float>(strip.storage_elements) * bar.w;
    };
    for (size_t k = 0; k < strip.first_positions.size(); ++k) {
        float x = x_of(strip.first_positions[k]);
        if (animating && same_buffer && k < from->strip.first_positions.size()) {
            x = x_of(from->strip.first_positions[k]) + (x - x_of(from->strip.first_positions[k])) * t;
        }
        xs.push_back(x);
    }
    for (size_t k = 0; k + 1 < xs.size(); ++k) {
        const float x0 = xs[k], x1 = xs[k + 1];
        const float lift = std::min(arc_h * 1.6f, 3.0f + std::fabs(x1 - x0) * 0.25f);
        p.dl->AddBezierCubic(ImVec2(x0, bar.y), ImVec2(x0, bar.y - lift), ImVec2(x1, bar.y - lift), ImVec2(x1, bar.y),
                             p.pal.text, 1.2f * p.f->scale);
    }
    if (!xs.empty()) p.dl->AddCircleFilled(ImVec2(xs.front(), bar.y), 3.0f * p.f->scale, p.pal.text);
}

}  // namespace attn::gui
