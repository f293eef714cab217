// HeatmapCache: one coloured texture per panel of the current DisplayModel, baked on
// the GPU the first time a step is drawn and kept until the model or theme changes.
// Nothing is uploaded per frame.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/display_model.h"
#include "app/gui/gl/colorizer.h"

namespace attn::gui {

// Which set of a step's panels: its values, or (projections) W^T and the bias.
enum class HeatmapLayer { Values = 0, WeightT = 1, Bias = 2 };

class HeatmapCache {
public:
    HeatmapCache() = default;
    // Drops every texture; the next texture() call bakes from `model`. Masked cells get
    // `masked_color` with lighter (dark theme) or paler (light theme) stripes.
    void reset(std::shared_ptr<const DisplayModel> model, Rgb masked_color);
    // `model` is the current one with more steps built (complete_display_model): the
    // textures baked so far stay, the new steps bake when first drawn.
    void adopt_completed(std::shared_ptr<const DisplayModel> model);
    // The model the textures are baked from.
    const std::shared_ptr<const DisplayModel>& model() const { return model_; }
    // The texture of panel `panel` of step `step` (null when out of range or GL failed).
    const gl::Texture* texture(int step, int panel, HeatmapLayer layer = HeatmapLayer::Values);
    // Shader compile/link message, if any (shown in the window).
    std::string error() const;

private:
    std::unique_ptr<gl::Colorizer> colorizer_;  // created on first use (needs a GL context)
    std::shared_ptr<const DisplayModel> model_;
    std::vector<std::array<std::vector<gl::Texture>, 3>> baked_;  // [step][layer][panel]
    std::vector<std::array<bool, 3>> done_;                       // [step][layer] baked already
    Rgb masked_, hatch_;
};

}  // namespace attn::gui
