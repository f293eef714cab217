// Compare mode's third picture (View > Compare): A − B, step by step. Both traces come
// from the core as they are; this only subtracts them, cell by cell, for the steps they
// share with one shape, and colours the result on its own symmetric scale per step
// (-largest |A − B| .. +largest), so an exact zero is the scale's middle colour and the
// legend says how far apart the runs are. Pure logic: no GL, no ImGui.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/display/display_model.h"
#include "core/message.h"
#include "core/trace.h"

namespace attn::gui {

// Per step of A: can it be subtracted from B's step of the same name?
enum class Comparable : uint8_t {
    Yes,
    MissingInB,     // B's forward does not record this step (RoPE off, no dropout, ...)
    ShapeDiffers,   // 1 head against 8, another L, ...
};

// A − B with A's steps, in A's order (so A's step index finds it). A step that is not
// Comparable::Yes holds zeros of A's shape and is never drawn as a difference.
// Cells hidden by a mask in A or in B (-inf, or a fill at or below kFloatMaskHidesKey)
// stay -inf: drawn hatched, not as the difference of two fill values.
struct TraceDifference {
    std::shared_ptr<const Trace> trace;
    std::vector<Comparable> comparable;  // [step of A]
};
TraceDifference subtract_traces(const Trace& a, const Trace& b);

// Why step `a_index` of A has no difference ("" when it has one), for the canvas.
Message why_not_comparable(const Trace& a, const Trace& b, const TraceDifference& d, int a_index);

// The difference's display model, built like any trace's (only `focus_step` and what it
// reads, or every step), then every step coloured on its own symmetric scale.
DisplayModel build_difference_model(const Trace& difference, std::vector<std::string> query_tokens,
                                    std::vector<std::string> key_tokens, int batch_item, int max_extent,
                                    int focus_step);

// The largest |A − B| of step `index` over every batch item (0 when they agree exactly,
// and for a step that is not comparable).
float largest_difference(const TraceDifference& d, int index);

}  // namespace attn::gui
