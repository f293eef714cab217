// Colorizer: turns a matrix of floats into an RGBA texture on the GPU. The values are
// uploaded once as GL_R32F and coloured by shaders/heatmap_frag.glsl through a
// colormap table; the coloured texture is what ImGui draws (cached by HeatmapCache).
#pragma once

#include <string>

#include "app/gui/colormap.h"
#include "app/gui/gl/gl_objects.h"

namespace attn::gui::gl {

class Colorizer {
public:
    // Compiles the shaders and builds the colormap tables; check error() afterwards.
    Colorizer();
    const std::string& error() const { return program_.error(); }
    bool valid() const { return program_.valid(); }

    // values: (rows, cols) row-major. Returns an RGBA8 texture with one texel per value.
    // -inf cells get `masked`. Restores the framebuffer binding and viewport.
    Texture bake(const float* values, int rows, int cols, float vmin, float vmax, ColormapKind kind,
                 Rgb masked);

private:
    ShaderProgram program_;
    VertexArray vao_;
    Texture diverging_, sequential_;
};

}  // namespace attn::gui::gl
