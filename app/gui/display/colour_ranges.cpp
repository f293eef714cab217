// Which steps share a colour scale, and their ranges; see colour_ranges.h.
#include "app/gui/display/colour_ranges.h"

#include <algorithm>
#include <cmath>

namespace attn::gui {
namespace {

// Steps that only move, rescale or mix their source's values share its colour scale.
bool keeps_source_scale(StepKind kind) {
    switch (kind) {
    case StepKind::Slice:
    case StepKind::View:
    case StepKind::Transpose:
    case StepKind::Scale:        // the learner sees the scores shrink instead of a re-normalised copy
    case StepKind::Mask:
    case StepKind::WeightedSum:  // each output row is an average of V's rows
    case StepKind::Concat:
    case StepKind::Rotation:  // pairs turned: same lengths, same scale
    case StepKind::RepeatKv:  // copies
    case StepKind::CacheAppend:
        return true;
    case StepKind::Input:
    case StepKind::RopeTable:
    case StepKind::HeadMean:
    case StepKind::Projection:
    case StepKind::Scores:
    case StepKind::Softmax:
    case StepKind::Dropout:
    case StepKind::Lookup:  // a trained model's steps (core/model/)
    case StepKind::Add:
    case StepKind::Norm:
    case StepKind::Prediction:
        return false;
    }
    return false;
}

}  // namespace

std::vector<int> colour_scale_groups(const Trace& trace, const DisplayModel& model, ColourScale scale) {
    const size_t n = model.steps.size();
    std::vector<size_t> group(n);
    for (size_t i = 0; i < n; ++i) group[i] = i;
    const auto root = [&](size_t i) {
        while (group[i] != i) i = group[i] = group[group[i]];
        return i;
    };
    const auto join = [&](size_t a, size_t b) { group[root(a)] = root(b); };
    size_t first_signed = n, first_probability = n;
    for (size_t i = 0; i < n; ++i) {
        const ColormapKind colormap = model.steps[i].colormap;
        // Probabilities share 0..(the largest of any of them); differences from float32
        // keep their own 0..max.
        if (colormap == ColormapKind::Sequential && !scale.difference_from_float32) {
            if (first_probability == n) first_probability = i;
            join(i, first_probability);
        }
        if (colormap != ColormapKind::Diverging) continue;
        if (scale.one_scale_across_steps) {  // every signed step on the first one's scale
            if (first_signed == n) first_signed = i;
            join(i, first_signed);
            continue;
        }
        const Step& step = trace.steps[i];
        if (!keeps_source_scale(step.kind)) continue;
        for (StepId source : step.sources) {
            const int s = trace.index_of(source);
            if (s < 0 || model.steps[static_cast<size_t>(s)].colormap != ColormapKind::Diverging) continue;
            join(i, static_cast<size_t>(s));
        }
    }
    std::vector<int> out(n);
    for (size_t i = 0; i < n; ++i) out[i] = static_cast<int>(root(i));
    return out;
}

void share_colour_ranges(const Trace& trace, DisplayModel& model, ColourScale scale) {
    const std::vector<int> groups = colour_scale_groups(trace, model, scale);
    const size_t n = model.steps.size();
    // Per group: the largest |value| (signed steps), the largest value (probabilities, at
    // least 1: the honest 0..1) and the largest value alone (stretched probabilities).
    std::vector<float> extent(n, 1e-6f), top(n, 1.0f), data_top(n, 0.0f);
    for (size_t i = 0; i < n; ++i) {
        const StepDisplay& sd = model.steps[i];
        const auto g = static_cast<size_t>(groups[i]);
        extent[g] = std::max({extent[g], std::fabs(sd.data_min), std::fabs(sd.data_max)});
        top[g] = std::max(top[g], sd.data_max);
        data_top[g] = std::max(data_top[g], sd.data_max);
    }
    for (size_t i = 0; i < n; ++i) {
        StepDisplay& sd = model.steps[i];
        const auto g = static_cast<size_t>(groups[i]);
        if (sd.colormap == ColormapKind::Sequential && scale.difference_from_float32) {
            sd.vmin = 0.0f;
            sd.vmax = sd.data_max > 0.0f ? sd.data_max : 1e-6f;
        } else if (sd.colormap == ColormapKind::Sequential) {
            sd.vmin = 0.0f;
            sd.vmax = top[g];
            if (scale.stretch_probabilities) {
                const float own = scale.one_scale_across_steps ? data_top[g] : sd.data_max;
                sd.vmax = own > 0.0f ? own : 1.0f;
                sd.stretched = true;
            }
        } else {
            sd.vmin = -extent[g];
            sd.vmax = extent[g];
        }
    }
}

}  // namespace attn::gui
