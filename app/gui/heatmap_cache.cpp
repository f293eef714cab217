#include "app/gui/heatmap_cache.h"

namespace attn::gui {

void HeatmapCache::reset(std::shared_ptr<const DisplayModel> model, Rgb masked_color) {
    model_ = std::move(model);
    masked_ = masked_color;
    baked_.clear();
    if (model_) baked_.resize(model_->steps.size());
}

const gl::Texture* HeatmapCache::texture(int step, int panel) {
    if (!model_ || step < 0 || step >= static_cast<int>(model_->steps.size())) return nullptr;
    const StepDisplay& sd = model_->steps[static_cast<size_t>(step)];
    if (panel < 0 || panel >= static_cast<int>(sd.panels.size())) return nullptr;
    auto& textures = baked_[static_cast<size_t>(step)];
    if (textures.empty()) {
        if (!colorizer_) colorizer_ = std::make_unique<gl::Colorizer>();
        if (!colorizer_->valid()) return nullptr;
        textures.reserve(sd.panels.size());
        for (const Panel& p : sd.panels) {
            textures.push_back(colorizer_->bake(p.values.data(), p.tex_rows, p.tex_cols, sd.vmin, sd.vmax,
                                                sd.colormap, masked_));
        }
    }
    const gl::Texture& t = textures[static_cast<size_t>(panel)];
    return t.valid() ? &t : nullptr;
}

std::string HeatmapCache::error() const { return colorizer_ ? colorizer_->error() : std::string(); }

}  // namespace attn::gui
