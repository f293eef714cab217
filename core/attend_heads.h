// The per-head pass of the attention forward: every (b, h) at once (OpenMP), scores ->
// scale and mask (in the configured order) -> softmax -> dropout -> weighted sum, each
// rounded to the compute dtype after its op (core/ops.h holds the operations). The
// forward (core/attention.cpp) records what it returns as the plan's steps.
#pragma once

#include <cstdint>
#include <limits>
#include <vector>

#include "core/config.h"
#include "core/forward_plan.h"
#include "core/mask_spec.h"
#include "core/tensor.h"

namespace attn {

// The masks a forward combines: the configuration's (presets, file) and a caller's (L, S) cells.
struct Masks {
    const BoundMask* bound = nullptr;               // null when the configuration has no mask
    const std::vector<uint8_t>* custom = nullptr;   // (L, S) of the whole pass, 1 = masked; may be empty
    int64_t custom_keys = 0;                        // S of the whole pass: the custom mask's row length
    float fill = -std::numeric_limits<float>::infinity();
    // A block of rows against the KV cache: the absolute position of the block's first
    // query (its row in the whole (L, S) mask); 0 for the whole pass.
    int64_t query_offset = 0;
};
// `bound` (when it has a source) and `custom` with the configuration's fill; both must
// outlive the pass that reads them.
Masks masks_of(const AttentionConfig& config, const BoundMask& bound, const std::vector<uint8_t>& custom);

// What the pass writes: (B, H, L, S_total) maps (masked and dropped only when the plan has
// those steps) and the context.
struct HeadMaps {
    Tensor scores, scaled, masked, weights, dropped;
    Tensor context;                     // (B, H, L, d_h)
    std::vector<uint8_t> fully_masked;  // (B, H, L): 1 where no key was left to attend to
};

// q: (B, H, L, d_h); k, v: (B, H, S_total, d_h), after repeat_kv and with any extra key rows.
// For a block of rows against the cache, L is the block's row count (q's) and S_total the
// cached positions.
HeadMaps attend_per_head(const AttentionConfig& config, const ForwardPlan& plan, const Masks& masks,
                         const Tensor& q, const Tensor& k, const Tensor& v);

}  // namespace attn
