// The configuration's mask bound to its sizes: the one place a forward's mask is built,
// read by the forward (core/attention.cpp), validate() and the cell explanation.
#pragma once

#include "core/config.h"
#include "core/mask_spec.h"
#include "core/result.h"

namespace attn {

// Which of the configuration's mask sources to bind.
enum class MaskSources {
    All,       // the presets (causal, padding, left-padding, window) and the mask file
    FileOnly,  // the mask file alone: what the file says about a cell, presets aside
};

// The configuration's mask sources bound to (B, H, L, S) = (batch, H, L, S), in the
// compute dtype (which sets the `min` fill). One valid length given for all batch items
// is repeated per item. A configuration without such sources binds to a mask whose any()
// is false. Fails with the bound mask's message when a length, the window or the file
// does not fit.
Result<BoundMask> bind_mask(const AttentionConfig& config, MaskSources sources = MaskSources::All);

}  // namespace attn
