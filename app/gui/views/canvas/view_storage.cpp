#include "app/gui/views/canvas/view_storage.h"

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "app/gui/display/animation.h"
#include "app/gui/display/head_groups.h"
#include "app/text/languages.h"
#include "app/text/step_text.h"

namespace attn::gui {
namespace {

// The colours of bins that are not a head's (explained by the key beside the caption).
constexpr Rgb kNoHead{0.55f, 0.57f, 0.62f};
constexpr Rgb kMixed{0.80f, 0.80f, 0.82f};

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
        if (h >= 0) color = pack_rgba(step_head_color(p.f->trace->config, p.step(p.f->step).id, h), alpha);  // GQA: by group
        else if (h == -2) color = pack_rgba(kNoHead, alpha);
        else if (h == -3) color = pack_rgba(kMixed, alpha * 0.8f);
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


struct Caption {
    std::vector<std::string> pieces;  // wrapped between pieces, never inside one
    bool no_head = false, mixed = false, outside = false;  // which grey bins appear
};

Caption strip_caption(const Painter& p) {
    const StepDisplay& sd = p.display(p.f->step);
    const StorageStrip& strip = sd.strip;
    const StepDisplay* from = sd.from_step >= 0 ? &p.display(sd.from_step) : nullptr;
    Caption c;
    c.pieces.push_back(text::trf("storage.buffer", {{"buffer", strip.buffer_id}, {"floats", strip.storage_elements}}));
    c.pieces.push_back(text::trf("storage.offset", {{"offset", strip.offset}}));
    c.pieces.push_back(text::trf("storage.strides", {{"strides", strides_text(strip.strides)}}));
    c.pieces.push_back(text::tr(strip.contiguous ? "storage.contiguous" : "storage.not_contiguous"));
    if (!strip.shares_with.empty()) c.pieces.push_back(text::trf("storage.shares", {{"step", strip.shares_with}}));
    else if (from) c.pieces.push_back(text::tr("storage.new_buffer"));
    // Where the recipe's own code copies elsewhere than the trace (llama, interview-mha).
    if (std::string note = text::code_copy_note(p.step(p.f->step).id, p.f->trace->config); !note.empty())
        c.pieces.push_back(std::move(note));
    const int64_t numel = p.step(p.f->step).tensor.numel();
    const auto arcs = static_cast<int64_t>(strip.first_positions.size());
    if (arcs > 1 && arcs < numel) {
        c.pieces.push_back(text::trf("storage.arcs", {{"shown", arcs}, {"elements", numel}}));
    }
    for (const int8_t b : strip.bins) {
        c.no_head |= b == -2;
        c.mixed |= b == -3;
        c.outside |= b == -1;
    }
    return c;
}

// Why the step's elements belong to no head: it comes before the split, after the heads
// were joined (concat, out, the residual, the model's output), or is a table every head
// shares (RoPE's cos and sin).
const char* no_head_key(const Painter& p) {
    const Trace& trace = *p.f->trace;
    const Step& shown = p.step(p.f->step);
    if (shown.kind == StepKind::RopeTable) return "storage.key.no_head_shared";
    for (int i = 0; i <= p.f->step && i < static_cast<int>(trace.steps.size()); ++i)
        if (trace.steps[static_cast<size_t>(i)].kind == StepKind::Concat) return "storage.key.no_head_joined";
    return "storage.key.no_head";
}

// The key entries for grey bins, in the order they are drawn.
std::vector<std::pair<uint32_t, std::string>> grey_key(const Painter& p, const Caption& c) {
    std::vector<std::pair<uint32_t, std::string>> key;
    if (c.no_head) key.emplace_back(pack_rgba(kNoHead), text::tr(no_head_key(p)));
    if (c.mixed) key.emplace_back(pack_rgba(kMixed, 0.8f), text::tr("storage.key.mixed"));
    if (c.outside) key.emplace_back(p.pal.empty_cell, text::tr("storage.key.outside"));

    return key;
}

// Caption pieces and key entries laid out in lines no wider than `width`.
struct CaptionLines {
    std::vector<std::vector<std::pair<float, int>>> lines;  // (x offset, item) per line
};

CaptionLines wrap_caption(const Painter& p, const Caption& c, const std::vector<std::pair<uint32_t, std::string>>& key,
                          float width) {
    CaptionLines out;
    const float gap = p.measure(p.f->fonts.small, "   ").x;
    const float swatch = p.small_size() + 4.0f * p.f->scale;
    float x = 0.0f;
    out.lines.emplace_back();
    const int count = static_cast<int>(c.pieces.size() + key.size());
    for (int i = 0; i < count; ++i) {
        const bool is_key = i >= static_cast<int>(c.pieces.size());
        const std::string& text = is_key ? key[static_cast<size_t>(i) - c.pieces.size()].second : c.pieces[static_cast<size_t>(i)];
        const float w = p.measure(p.f->fonts.small, text).x + (is_key ? swatch : 0.0f);
        if (x > 0.0f && x + w > width) {
            out.lines.emplace_back();
            x = 0.0f;
        }
        out.lines.back().emplace_back(x, i);
        x += w + gap;
    }
    return out;
}

}  // namespace

float storage_strip_height(const Painter& p, float width) {
    const Caption c = strip_caption(p);
    const CaptionLines lines = wrap_caption(p, c, grey_key(p, c), width);
    const float line_h = p.small_size() + 2.0f * p.f->scale;
    return static_cast<float>(lines.lines.size()) * line_h + p.small_size() + 20.0f * p.f->scale;
}

void draw_storage_strip(const Painter& p, const Rect& area) {
    const StepDisplay& sd = p.display(p.f->step);
    const StorageStrip& strip = sd.strip;
    if (strip.storage_elements == 0) return;
    const StepDisplay* from = sd.from_step >= 0 ? &p.display(sd.from_step) : nullptr;
    const float t = ease(p.f->progress);
    const bool animating = p.f->progress < 1.0f && from;
    const bool same_buffer = from && from->strip.buffer_id == strip.buffer_id;

    const Caption caption = strip_caption(p);
    const auto key = grey_key(p, caption);
    const CaptionLines lines = wrap_caption(p, caption, key, area.w);
    const float line_h = p.small_size() + 2.0f * p.f->scale;
    const float swatch = p.small_size() + 4.0f * p.f->scale;
    for (size_t l = 0; l < lines.lines.size(); ++l) {
        const float y = area.y + static_cast<float>(l) * line_h;
        for (const auto& [x, item] : lines.lines[l]) {
            if (item < static_cast<int>(caption.pieces.size())) {
                p.text(p.f->fonts.small, ImVec2(area.x + x, y), p.pal.dim_text, caption.pieces[static_cast<size_t>(item)]);
                continue;
            }
            const auto& [color, text] = key[static_cast<size_t>(item) - caption.pieces.size()];
            const float side = p.small_size() * 0.8f;
            const ImVec2 a(area.x + x, y + (p.small_size() - side) * 0.5f), b(a.x + side, a.y + side);
            p.dl->AddRectFilled(a, b, color);
            p.dl->AddRect(ImVec2(a.x - 1, a.y - 1), ImVec2(b.x + 1, b.y + 1), p.pal.frame);
            p.text(p.f->fonts.small, ImVec2(area.x + x + swatch, y), p.pal.dim_text, text);
        }
    }
    const float caption_h = static_cast<float>(lines.lines.size()) * line_h;

    const float arc_h = 10.0f * p.f->scale;
    const Rect bar{area.x, area.y + caption_h + 2.0f * p.f->scale + arc_h, area.w,
                   std::max(4.0f, area.h - caption_h - 4.0f * p.f->scale - arc_h)};
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
