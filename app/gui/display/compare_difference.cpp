#include "app/gui/display/compare_difference.h"

#include <algorithm>
#include <cfloat>
#include <cmath>

namespace attn::gui {

namespace {

float largest_magnitude(const Step* step) {
    if (!step) return 0.0f;
    const Tensor t = step->tensor.contiguous();
    float largest = 0.0f;
    for (int64_t i = 0; i < t.numel(); ++i)
        if (std::isfinite(t.data()[i])) largest = std::max(largest, std::fabs(t.data()[i]));
    return largest;
}

}  // namespace

std::vector<float> step_magnitudes(const Trace& a, const Trace& b) {
    std::vector<float> out;
    out.reserve(a.steps.size());
    for (const Step& step : a.steps) {
        const Step* other = b.find(step.id);
        out.push_back(other ? std::max(largest_magnitude(&step), largest_magnitude(other)) : 0.0f);
    }
    return out;
}

DisplayModel build_difference_model(const Trace& difference, std::vector<std::string> query_tokens,
                                    std::vector<std::string> key_tokens, int batch_item, int max_extent,
                                    int focus_step, const std::vector<float>& magnitudes) {
    ColourScale scale;
    scale.difference_from_float32 = true;  // differences: no shared chains, numbers as "2.9e-3"
    DisplayModel model = build_display_model(difference, std::move(query_tokens), std::move(key_tokens), batch_item,
                                             max_extent, focus_step, scale);
    model.signed_difference = true;
    for (size_t i = 0; i < model.steps.size(); ++i) {
        StepDisplay& sd = model.steps[i];
        if (sd.colormap == ColormapKind::Neutral) continue;  // token ids: never a difference of amounts
        sd.colormap = ColormapKind::Diverging;
        const float extent = std::max(std::fabs(sd.data_min), std::fabs(sd.data_max));
        const float rounding = i < magnitudes.size() ? magnitudes[i] * kRoundingEpsilons * FLT_EPSILON : 0.0f;
        sd.rounding_only = extent > 0.0f && extent <= rounding;
        if (sd.rounding_only) {
            sd.vmin = -rounding;
            sd.vmax = rounding;
            sd.stretched = false;
            continue;
        }
        // Identical runs still need a range; the legend then reads 0 at both ends.
        sd.vmin = extent > 0.0f ? -extent : -1e-30f;
        sd.vmax = extent > 0.0f ? extent : 1e-30f;
        sd.stretched = false;
    }
    return model;
}

}  // namespace attn::gui
