#include "app/gui/display/compare_difference.h"

#include <algorithm>
#include <cmath>

namespace attn::gui {

DisplayModel build_difference_model(const Trace& difference, std::vector<std::string> query_tokens,
                                    std::vector<std::string> key_tokens, int batch_item, int max_extent,
                                    int focus_step) {
    ColourScale scale;
    scale.difference_from_float32 = true;  // differences: no shared chains, numbers as "2.9e-3"
    DisplayModel model = build_display_model(difference, std::move(query_tokens), std::move(key_tokens), batch_item,
                                             max_extent, focus_step, scale);
    model.signed_difference = true;
    for (StepDisplay& sd : model.steps) {
        if (sd.colormap == ColormapKind::Neutral) continue;  // token ids: never a difference of amounts
        sd.colormap = ColormapKind::Diverging;
        const float extent = std::max(std::fabs(sd.data_min), std::fabs(sd.data_max));
        // Identical runs still need a range; the legend then reads 0 at both ends.
        sd.vmin = extent > 0.0f ? -extent : -1e-30f;
        sd.vmax = extent > 0.0f ? extent : 1e-30f;
        sd.stretched = false;
    }
    return model;
}

}  // namespace attn::gui
