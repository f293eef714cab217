#include "app/gui/heatmap_cache.h"

#include <algorithm>

namespace attn::gui {

void HeatmapCache::reset(std::shared_ptr<const DisplayModel> model, Rgb masked_color) {
    model_ = std::move(model);
    masked_ = masked_color;
    // Stripes a step lighter than the fill: visible on the near-black (dark) and the
    // grey (light) masked colour alike.
    hatch_ = Rgb{std::min(1.0f, masked_.r + 0.3f), std::min(1.0f, masked_.g + 0.3f), std::min(1.0f, masked_.b + 0.3f)};
    baked_.clear();
    done_.clear();
    if (model_) {
        baked_.resize(model_->steps.size());
        done_.assign(model_->steps.size(), {false, false, false});
    }
}

void HeatmapCache::adopt_completed(std::shared_ptr<const DisplayModel> model) {
    if (!model_ || !model || model->steps.size() != model_->steps.size()) {
        reset(std::move(model), masked_);
        return;
    }
    // A step is baked only once it has panels (texture() below), and built steps do not
    // change when the rest of the model is completed, so every baked texture still holds.
    model_ = std::move(model);
}

const gl::Texture* HeatmapCache::texture(int step, int panel, HeatmapLayer layer) {
    if (!model_ || step < 0 || step >= static_cast<int>(model_->steps.size())) return nullptr;
    const StepDisplay& sd = model_->steps[static_cast<size_t>(step)];
    const auto li = static_cast<size_t>(layer);
    const std::vector<Panel>& panels =
        layer == HeatmapLayer::Values ? sd.panels : (layer == HeatmapLayer::WeightT ? sd.weight_panels : sd.bias_panels);
    if (panel < 0 || panel >= static_cast<int>(panels.size())) return nullptr;
    auto& textures = baked_[static_cast<size_t>(step)][li];
    if (!done_[static_cast<size_t>(step)][li]) {
        done_[static_cast<size_t>(step)][li] = true;
        if (!colorizer_) colorizer_ = std::make_unique<gl::Colorizer>();
        if (!colorizer_->valid()) return nullptr;
        const bool values = layer == HeatmapLayer::Values;
        const float vmin = values ? sd.vmin : sd.weight_vmin, vmax = values ? sd.vmax : sd.weight_vmax;
        const ColormapKind kind = values ? sd.colormap : ColormapKind::Diverging;
        textures.reserve(panels.size());
        for (const Panel& p : panels) {
            textures.push_back(colorizer_->bake(p.values.data(), p.tex_rows, p.tex_cols, vmin, vmax, kind, masked_, hatch_,
                                                bake_cell_px(p)));
        }
    }
    if (panel >= static_cast<int>(textures.size())) return nullptr;
    const gl::Texture& t = textures[static_cast<size_t>(panel)];
    return t.valid() ? &t : nullptr;
}

std::string HeatmapCache::error() const { return colorizer_ ? colorizer_->error() : std::string(); }

}  // namespace attn::gui
