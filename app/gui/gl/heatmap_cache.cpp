#include "app/gui/gl/heatmap_cache.h"

#include <algorithm>
#include <cmath>
#include <cstddef>

namespace attn::gui {

namespace {

// Panels stacked into one texture start on a row that is a multiple of this, one row
// apart at least: the shader's one-texel hatching repeats every 3 rows (x + y mod 3),
// so a panel's stripes sit exactly where they would in a texture of its own, and a
// nearest-texel lookup at a panel's edge never reads the next panel.
constexpr int kStackRowAlign = 3;

int stack_start(int row) { return (row + kStackRowAlign - 1) / kStackRowAlign * kStackRowAlign; }

// The panels of one layer of a step: its values, W^T or b.
const std::vector<Panel>& panels_of(const StepDisplay& sd, HeatmapLayer layer) {
    switch (layer) {
        case HeatmapLayer::Values: break;
        case HeatmapLayer::WeightT: return sd.weight_panels;
        case HeatmapLayer::Bias: return sd.bias_panels;
    }
    return sd.panels;
}

}  // namespace

void HeatmapCache::reset(std::shared_ptr<const DisplayModel> model, Rgb masked_color) {
    model_ = std::move(model);
    masked_ = masked_color;
    // Stripes a step lighter than the fill: visible on the near-black (dark) and the
    // grey (light) masked colour alike.
    hatch_ = Rgb{std::min(1.0f, masked_.r + 0.3f), std::min(1.0f, masked_.g + 0.3f), std::min(1.0f, masked_.b + 0.3f)};
    retired_ = std::move(uploaded_);
    uploaded_.clear();
    if (model_) uploaded_.resize(model_->steps.size());
}

void HeatmapCache::adopt_completed(std::shared_ptr<const DisplayModel> model) {
    if (!model_ || !model || model->steps.size() != model_->steps.size()) {
        reset(std::move(model), masked_);
        return;
    }
    // A step is uploaded only once it has panels (image() below), and built steps do not
    // change when the rest of the model is completed, so every uploaded texture still holds.
    model_ = std::move(model);
}

void HeatmapCache::upload(const StepDisplay& sd, HeatmapLayer layer, Uploaded& out) {
    const bool values = layer == HeatmapLayer::Values;
    const std::vector<Panel>& panels = panels_of(sd, layer);
    const float vmin = values ? sd.vmin : sd.weight_vmin, vmax = values ? sd.vmax : sd.weight_vmax;
    const ColormapKind kind = values ? sd.colormap : ColormapKind::Diverging;
    out.slots.assign(panels.size(), Slot{});
    const auto finite = [](const Panel& p) { return all_finite(p.values); };
    const auto add_colouring = [&](int cell_px, bool all_finite) {
        out.colourings.push_back(gl::HeatmapColouring{colorizer_.get(), vmin, vmax, kind, masked_, hatch_, cell_px, all_finite});
    };

    // Panels of one texel per cell go into stacks no taller than the GL limit; the others
    // get a texture each.
    const int limit = gl::max_texture_size();
    std::vector<std::vector<size_t>> stacks;
    int stack_rows = 0;
    for (size_t i = 0; i < panels.size(); ++i) {
        const Panel& p = panels[i];
        const int cell_px = bake_cell_px(p);
        if (cell_px != 1) {
            out.slots[i].texture = static_cast<int>(out.textures.size());
            out.textures.push_back(gl::Colorizer::upload(p.values.data(), p.tex_rows, p.tex_cols));
            add_colouring(cell_px, finite(p));
            continue;
        }
        int start = stacks.empty() ? 0 : stack_start(stack_rows + 1);
        if (stacks.empty() || start + p.tex_rows > limit) {
            stacks.emplace_back();
            start = 0;
        }
        stacks.back().push_back(i);
        stack_rows = start + p.tex_rows;
    }
    for (const std::vector<size_t>& stack : stacks) {
        int rows = 0, cols = 1;
        std::vector<int> starts;
        for (size_t i : stack) {
            const int start = starts.empty() ? 0 : stack_start(rows + 1);
            starts.push_back(start);
            rows = start + panels[i].tex_rows;
            cols = std::max(cols, panels[i].tex_cols);
        }
        // Each panel is written straight into its rows (no stacked copy first); the rows
        // between panels are never drawn.
        gl::Texture texture(gl::Texture::Format::R32F, cols, rows, nullptr);
        bool all_finite = true;
        for (size_t k = 0; k < stack.size(); ++k) {
            const Panel& p = panels[stack[k]];
            texture.write_rows(starts[k], p.tex_rows, p.tex_cols, p.values.data());
            all_finite = all_finite && finite(p);
            Slot& slot = out.slots[stack[k]];
            slot.texture = static_cast<int>(out.textures.size());
            slot.u1 = static_cast<float>(p.tex_cols) / static_cast<float>(cols);
            slot.v0 = static_cast<float>(starts[k]) / static_cast<float>(rows);
            slot.v1 = static_cast<float>(starts[k] + p.tex_rows) / static_cast<float>(rows);
        }
        out.textures.push_back(std::move(texture));
        add_colouring(1, all_finite);
    }
}

HeatmapImage HeatmapCache::image(int step, int panel, HeatmapLayer layer) {
    if (!model_ || step < 0 || step >= static_cast<int>(model_->steps.size())) return {};
    const StepDisplay& sd = model_->steps[static_cast<size_t>(step)];
    Uploaded& uploaded = uploaded_[static_cast<size_t>(step)][static_cast<size_t>(layer)];
    if (!uploaded.done) {
        if (panels_of(sd, layer).empty()) return {};  // not built yet: upload once it has panels
        uploaded.done = true;
        if (!colorizer_) colorizer_ = std::make_unique<gl::Colorizer>();
        if (!colorizer_->valid()) return {};
        upload(sd, layer, uploaded);
    }
    if (panel < 0 || panel >= static_cast<int>(uploaded.slots.size())) return {};
    const Slot& slot = uploaded.slots[static_cast<size_t>(panel)];
    if (slot.texture < 0) return {};
    const gl::Texture& t = uploaded.textures[static_cast<size_t>(slot.texture)];
    if (!t.valid()) return {};
    return HeatmapImage{&t, &uploaded.colourings[static_cast<size_t>(slot.texture)], slot.u0, slot.v0, slot.u1, slot.v1};
}

void HeatmapImage::draw(ImDrawList& list, ImVec2 a, ImVec2 b, float col0, float row0, float col1, float row1, ImU32 tint) const {
    if (!texture || !colouring) return;
    gl::Colorizer::add_image(list, *texture, *colouring, a, b, ImVec2(u(col0), v(row0)), ImVec2(u(col1), v(row1)), tint);
}

std::string HeatmapCache::error() const { return colorizer_ ? colorizer_->error() : std::string(); }

}  // namespace attn::gui
