#include "app/gui/display/rotation_pairs.h"

#include <cmath>

#include "core/rope.h"

namespace attn::gui {

std::vector<RotationPair> rotation_pairs(const Trace& trace, int step_index, int b, int head, int row) {
    std::vector<RotationPair> out;
    if (step_index < 0 || step_index >= static_cast<int>(trace.steps.size())) return out;
    const Step& step = trace.steps[static_cast<size_t>(step_index)];
    const Step* cos_table = trace.find(StepId::RopeCos);
    const Step* sin_table = trace.find(StepId::RopeSin);
    if (step.kind != StepKind::Rotation || step.sources.empty() || !cos_table || !sin_table) return out;
    const Step* source = trace.find(step.sources.front());
    const Tensor& t = step.tensor;  // (B, heads, N, d_h)
    if (!source || t.rank() != 4 || source->tensor.shape() != t.shape()) return out;
    if (b < 0 || head < 0 || row < 0 || b >= t.dim(0) || head >= t.dim(1) || row >= t.dim(2)) return out;
    if (row >= cos_table->tensor.dim(0)) return out;
    const int64_t d_h = t.dim(3);
    const bool half = trace.config.rope_style == RopeStyle::Half;
    for (int64_t c = 0; c < d_h / 2; ++c) {
        RotationPair p;
        p.first = static_cast<int>(half ? c : 2 * c);
        p.second = static_cast<int>(half ? c + d_h / 2 : 2 * c + 1);
        p.x0 = source->tensor.at({b, head, row, p.first});
        p.y0 = source->tensor.at({b, head, row, p.second});
        p.x1 = t.at({b, head, row, p.first});
        p.y1 = t.at({b, head, row, p.second});
        // The whole angle, position x inv_freq, as the core defines it (the tables only
        // hold it modulo a turn; a far position turns several times).
        const int64_t frequency = rope_frequency(p.first, d_h, trace.config.rope_style);
        p.angle = static_cast<float>(trace.config.position_offset + row) *
                  rope_inv_freq(frequency, d_h, trace.config.rope_base);
        out.push_back(p);
    }
    return out;
}

void rotated_at(const RotationPair& pair, float t, float& x, float& y) {
    // Both styles turn (first, second) counter-clockwise: first' = first cos - second sin,
    // second' = second cos + first sin.
    const float a = pair.angle * t;
    x = pair.x0 * std::cos(a) - pair.y0 * std::sin(a);
    y = pair.y0 * std::cos(a) + pair.x0 * std::sin(a);
}

}  // namespace attn::gui
