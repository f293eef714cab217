// Colorizer: turns a matrix of floats into an RGBA texture on the GPU. The values are
// uploaded once as GL_R32F and coloured by shaders/heatmap_frag.glsl through a
// colormap table; the coloured texture is what ImGui draws (cached by HeatmapCache).
#pragma once

#include <string>
#include <vector>

#include "app/gui/display/colormap.h"
#include "app/gui/gl/gl_objects.h"

namespace attn::gui::gl {

class Colorizer {
public:
    // Compiles the shaders and builds the colormap tables; check error() afterwards.
    Colorizer();
    const std::string& error() const { return program_.error(); }
    bool valid() const { return program_.valid(); }

    // values: (rows, cols) row-major. Returns an RGBA8 texture of (rows * cell_px,
    // cols * cell_px) texels. -inf cells get `masked` with diagonal stripes of `hatch`;
    // +inf (a weight of a masked key) the colour of 0 with a faint hatch.
    // Restores the framebuffer binding and viewport.
    Texture bake(const float* values, int rows, int cols, float vmin, float vmax, ColormapKind kind,
                 Rgb masked, Rgb hatch, int cell_px = 1);

    // Rows [row, row + rows) of a combined bake, coloured on their own range and colormap.
    struct Region {
        int row = 0, rows = 0;
        float vmin = 0.0f, vmax = 1.0f;
        ColormapKind kind = ColormapKind::Diverging;
    };
    // Several one-texel-per-cell pictures in one texture and one pass: values (rows, cols)
    // row-major hold every region's rows. Under llvmpipe each pass into a texture is
    // rasterised before the frame goes on (its threads woken and joined), so the pictures a
    // frame needs at once are baked together. A region's fragments are exactly what bake()
    // gives it alone when `row` is a multiple of 3 (the hatching's period).
    Texture bake_regions(const float* values, int rows, int cols, const std::vector<Region>& regions, Rgb masked,
                         Rgb hatch);

private:
    // bake() and bake_regions(): `regions` coloured into one new (rows, cols) x cell_px texture.
    Texture draw(const float* values, int rows, int cols, const std::vector<Region>& regions, Rgb masked, Rgb hatch,
                 int cell_px);
    ShaderProgram program_;
    VertexArray vao_;
    const Texture& table(ColormapKind kind) const {
        switch (kind) {
            case ColormapKind::Diverging: return diverging_;
            case ColormapKind::Sequential: return sequential_;
            case ColormapKind::Neutral: break;
        }
        return neutral_;
    }
    Texture diverging_, sequential_, neutral_;
};

}  // namespace attn::gui::gl
