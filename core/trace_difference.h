// A − B of two traces, step by step: compare mode's third picture (View > Compare) and
// `attnviz trace --compare`'s DIR/a_minus_b. Only subtracts, cell by cell, for the steps
// both traces record with one shape; nothing of attention is recomputed.
#pragma once

#include <cstdint>
#include <memory>
#include <vector>

#include "core/message.h"
#include "core/trace.h"

namespace attn {

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

// Why step `a_index` of A has no difference (an empty message when it has one).
Message why_not_comparable(const Trace& a, const Trace& b, const TraceDifference& d, int a_index);

// The largest |A − B| of step `index` over every batch item (0 when they agree exactly,
// and for a step that is not comparable).
float largest_difference(const TraceDifference& d, int index);

}  // namespace attn
