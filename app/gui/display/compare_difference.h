// Compare mode's third picture (View > Compare): A − B (core/trace_difference.h) coloured
// on its own symmetric scale per step (-largest |A − B| .. +largest), so an exact zero is
// the scale's middle colour and the legend says how far apart the runs are. Pure logic:
// no GL, no ImGui.
#pragma once

#include <string>
#include <vector>

#include "app/gui/display/display_model.h"
#include "core/trace_difference.h"

namespace attn::gui {

// Per step of A: the largest finite |value| of that step in A or in B (0 where B lacks
// it), the size float32 rounding is measured against.
std::vector<float> step_magnitudes(const Trace& a, const Trace& b);

// A difference no larger than this many float32 steps (machine epsilon) of the values'
// magnitude is rounding, not a difference in what was computed (RoPE's offset: 6e-8 on
// scores near 3).
constexpr float kRoundingEpsilons = 64.0f;

// The difference's display model, built like any trace's (only `focus_step` and what it
// reads, or every step), then every step coloured on its own symmetric scale: zero
// everywhere keeps the middle colour, and a step whose largest |A − B| is rounding of
// `magnitudes` (step_magnitudes; none given: no step is) is coloured on the rounding's
// size and marked rounding_only.
DisplayModel build_difference_model(const Trace& difference, std::vector<std::string> query_tokens,
                                    std::vector<std::string> key_tokens, int batch_item, int max_extent,
                                    int focus_step, const std::vector<float>& magnitudes = {});

}  // namespace attn::gui
