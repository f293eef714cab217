// Colorizer: turns a matrix of floats into an RGBA texture on the GPU. The values are
// uploaded once as GL_R32F and coloured by shaders/heatmap_frag.glsl through a
// colormap table; the coloured texture is what ImGui draws (cached by HeatmapCache).
#pragma once

#include <string>

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

private:
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
