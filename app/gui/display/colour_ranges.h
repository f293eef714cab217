// Colour ranges: which steps share one colour scale, and each step's range from the value
// ranges found in the trace (display_model.cpp scans them). Pure data, no GL, no ImGui.
//
// One colour scale per family of steps, so a colour means the same number across a step and
// the sources drawn beside it: probabilities (softmax, dropout) on 0..1 (higher only when
// dropout's 1/(1-p) lifts a survivor past 1), and signed values on one symmetric range per
// chain of steps that keep their source's scale. ColourScale may stretch the probabilities
// to each step's data or put every signed step on one range.
#pragma once

#include <vector>

#include "app/gui/display/display_model.h"

namespace attn::gui {

// For every step, the steps whose value ranges its colours depend on (itself included):
// its chain of signed steps, every probability step, or only itself (token ids, a
// difference from float32). Needs only each step's colormap (build_step), no values.
// scale_group[i]: an id shared by exactly the steps of one scale.
std::vector<int> colour_scale_groups(const Trace& trace, const DisplayModel& model, ColourScale scale);

// Sets every step's vmin, vmax and `stretched` from the data_min / data_max of the steps of
// its group (colour_scale_groups). A step whose group is not fully scanned gets a range
// that completing the model (complete_display_model) replaces.
void share_colour_ranges(const Trace& trace, DisplayModel& model, ColourScale scale);

}  // namespace attn::gui
