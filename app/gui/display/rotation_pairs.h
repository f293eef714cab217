// The coordinate pairs a RoPE step turns, read from the trace for the canvas's rotation
// dials (views/canvas/view_canvas_rotation.h): for one head vector (item b, head h, position
// row) of q_rot or k_rot, each pair's coordinates before (q_heads / k_heads) and after
// the rotation, and its whole angle (core/rope.h's position x inv_freq, whose cos and
// sin are the rope_cos / rope_sin tables). Nothing is
// recomputed: the "after" is the step's own value; the animation only turns the
// "before" by a growing part of the table's angle. Pure logic: no GL, no ImGui.
#pragma once

#include <vector>

#include "core/trace.h"

namespace attn::gui {

struct RotationPair {
    int first = 0, second = 0;  // the pair's columns: (c, c + d_h/2) half-split, (2c, 2c+1) interleaved
    float x0 = 0, y0 = 0;       // before the rotation (the step's first source)
    float x1 = 0, y1 = 0;       // after it (the step itself)
    float angle = 0;            // radians: position x inv_freq (the tables hold its cos and sin)
};

// The pairs of vector (b, head, row) of Rotation step `step_index` (empty for other steps,
// out-of-range indices, or a trace without its tables and source).
std::vector<RotationPair> rotation_pairs(const Trace& trace, int step_index, int b, int head, int row);

// (x0, y0) turned by `t` times the pair's angle: t = 0 is the source, t = 1 the result.
void rotated_at(const RotationPair& pair, float t, float& x, float& y);

}  // namespace attn::gui
