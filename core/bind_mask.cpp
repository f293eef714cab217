#include "core/bind_mask.h"

namespace attn {

Result<BoundMask> bind_mask(const AttentionConfig& c, MaskSources sources) {
    MaskSpec spec = c.mask_spec();
    if (sources == MaskSources::FileOnly) spec.presets = MaskPresets{};
    if (spec.valid_lengths.size() == 1) spec.valid_lengths.assign(static_cast<size_t>(c.batch), spec.valid_lengths[0]);
    MaskSizes sizes;
    sizes.B = c.batch;
    sizes.H = c.H();
    sizes.L = c.L();
    sizes.S = c.S();
    return BoundMask::bind(spec, sizes, c.dtype);
}

}  // namespace attn
