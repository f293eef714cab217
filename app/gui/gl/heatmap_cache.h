// HeatmapCache: the value textures of the current DisplayModel's panels, uploaded the
// first time a step is drawn and kept until the model or theme changes; they are coloured
// while the frame is drawn (colorizer.h). Nothing is uploaded per frame. Panels of one
// cell per texel (the big maps) are stacked into one texture per step and layer (one
// upload each instead of 8 at L = 256 with 8 heads). Small masked maps (several picture
// texels per cell, for the hatching) keep a texture each.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/display/display_model.h"
#include "app/gui/gl/colorizer.h"
#include "app/gui/gl/line_picture.h"

namespace attn::gui {

// Which set of a step's panels: its values, or (projections) W^T and the bias.
enum class HeatmapLayer { Values = 0, WeightT = 1, Bias = 2 };

// Where a panel's picture is: a texture and the part of it the panel covers, in texture
// coordinates (u across columns, v down rows). `texture` is null when there is none.
struct HeatmapImage {
    const gl::Texture* texture = nullptr;        // the values (R32F)
    const gl::HeatmapColouring* colouring = nullptr;  // how they are coloured
    float u0 = 0.0f, v0 = 0.0f, u1 = 1.0f, v1 = 1.0f;
    // Texture coordinates of the point `col_fraction` across and `row_fraction` down the panel.
    float u(float col_fraction) const { return u0 + (u1 - u0) * col_fraction; }
    float v(float row_fraction) const { return v0 + (v1 - v0) * row_fraction; }
    // Adds the part col0..col1 x row0..row1 (fractions of the panel) to `list` between a and
    // b, coloured when ImGui renders it; `tint` multiplies the colours (a fade).
    void draw(ImDrawList& list, ImVec2 a, ImVec2 b, float col0 = 0.0f, float row0 = 0.0f, float col1 = 1.0f,
              float row1 = 1.0f, ImU32 tint = IM_COL32_WHITE) const;
};

class HeatmapCache {
public:
    HeatmapCache() = default;
    // Drops every texture; the next image() call uploads from `model`. Masked cells get
    // `masked_color` with lighter (dark theme) or paler (light theme) stripes.
    void reset(std::shared_ptr<const DisplayModel> model, Rgb masked_color);
    // `model` is the current one with more steps built (complete_display_model): the
    // textures uploaded so far stay, the new steps upload when first drawn.
    void adopt_completed(std::shared_ptr<const DisplayModel> model);
    // The model the textures are made from.
    const std::shared_ptr<const DisplayModel>& model() const { return model_; }
    // The picture of panel `panel` of step `step` (no texture when out of range or GL failed).
    HeatmapImage image(int step, int panel, HeatmapLayer layer = HeatmapLayer::Values);
    // Shader compile/link message, if any (shown in the window).
    std::string error() const;
    // The lines view's picture of its lines (line_picture.h), kept with the canvas's textures.
    LinePicture& lines_picture() { return lines_picture_; }

private:
    std::unique_ptr<gl::Colorizer> colorizer_;  // created on first use (needs a GL context)
    std::shared_ptr<const DisplayModel> model_;
    // One step's layer: its textures and, per panel, which texture and where in it.
    struct Slot {
        int texture = -1;
        float u0 = 0.0f, v0 = 0.0f, u1 = 1.0f, v1 = 1.0f;
    };
    struct Uploaded {
        bool done = false;
        std::vector<gl::Texture> textures;
        std::vector<gl::HeatmapColouring> colourings;  // [texture]
        std::vector<Slot> slots;  // [panel]
    };
    void upload(const StepDisplay& sd, HeatmapLayer layer, Uploaded& out);

    std::vector<std::array<Uploaded, 3>> uploaded_;  // [step][layer]
    // The textures of the model before the last reset: a frame's draw list may still name
    // them (a reset while a frame is built) until it is rendered.
    std::vector<std::array<Uploaded, 3>> retired_;
    Rgb masked_, hatch_;
    LinePicture lines_picture_;
};

}  // namespace attn::gui
