// Colorizer: draws a matrix of floats as a heatmap. The values are uploaded once as
// GL_R32F and coloured while ImGui draws the frame, by shaders/heatmap_frag.glsl through
// a colormap table: no render pass and no framebuffer per heatmap, so a new trace's
// first frame costs what any frame costs plus the uploads (issue 28, the slider's redraw).
#pragma once

#include <string>

#include <imgui.h>

#include "app/gui/display/colormap.h"
#include "app/gui/gl/gl_objects.h"

namespace attn::gui::gl {

class Colorizer;

// How one values texture is coloured; kept alive with the texture (HeatmapCache) until
// the frame that draws it is rendered, since ImGui's draw list holds its address.
struct HeatmapColouring {
    const Colorizer* colorizer = nullptr;
    float vmin = -1.0f, vmax = 1.0f;  // the colormap's ends
    ColormapKind kind = ColormapKind::Diverging;
    Rgb masked, hatch;  // -inf cells get `masked` with diagonal stripes of `hatch`;
                        // +inf (a weight of a masked key) the colour of 0 with a faint hatch
    int cell_px = 1;    // picture texels per cell side: 1, or more for small masked maps
                        // (hatching inside each cell, smoothed when >= 4)
    bool finite = false;  // no inf or NaN among the values: the colormap alone is drawn
};

class Colorizer {
public:
    // Compiles the shaders and builds the colormap tables; check error() afterwards.
    Colorizer();
    const std::string& error() const {
        return !finite_.valid() ? finite_.error() : !sharp_.valid() ? sharp_.error() : smooth_.error();
    }
    bool valid() const { return finite_.valid() && sharp_.valid() && smooth_.valid(); }

    // values: (rows, cols) row-major, as a nearest-sampled R32F texture of cols x rows texels.
    static Texture upload(const float* values, int rows, int cols);

    // Adds `values` (from upload) to `list` between a and b, texture coordinates uv0..uv1,
    // coloured as `colouring` says and multiplied by `tint` (ImGui's colour, e.g. a fade).
    static void add_image(ImDrawList& list, const Texture& values, const HeatmapColouring& colouring, ImVec2 a, ImVec2 b,
                          ImVec2 uv0, ImVec2 uv1, ImU32 tint = IM_COL32_WHITE);

private:
    // ImDrawList callback: switches ImGui's renderer to the heatmap program for the next
    // draw command (the quad); ImDrawCallback_ResetRenderState switches back after it.
    static void use_for_next_quad(const ImDrawList* list, const ImDrawCmd* command);

    // heatmap_frag.glsl three times: nearest picture texels of finite values
    // (FINITE_VALUES), of any values, and filtered ones (SMOOTH_CELLS).
    ShaderProgram finite_, sharp_, smooth_;
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
