// HeatmapCache: one coloured texture per panel of the current DisplayModel, baked on
// the GPU the first time a step is drawn and kept until the model or theme changes.
// Nothing is uploaded per frame.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/gui/display_model.h"
#include "app/gui/gl/colorizer.h"

namespace attn::gui {

class HeatmapCache {
public:
    HeatmapCache() = default;
    // Drops every texture; the next texture() call bakes from `model`.
    void reset(std::shared_ptr<const DisplayModel> model, Rgb masked_color);
    // The texture of panel `panel` of step `step` (null when out of range or GL failed).
    const gl::Texture* texture(int step, int panel);
    // Shader compile/link message, if any (shown in the window).
    std::string error() const;

private:
    std::unique_ptr<gl::Colorizer> colorizer_;  // created on first use (needs a GL context)
    std::shared_ptr<const DisplayModel> model_;
    std::vector<std::vector<gl::Texture>> baked_;  // [step][panel]
    Rgb masked_;
};

}  // namespace attn::gui
