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

// The difference's display model, built like any trace's (only `focus_step` and what it
// reads, or every step), then every step coloured on its own symmetric scale.
DisplayModel build_difference_model(const Trace& difference, std::vector<std::string> query_tokens,
                                    std::vector<std::string> key_tokens, int batch_item, int max_extent,
                                    int focus_step);

}  // namespace attn::gui
