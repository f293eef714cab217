// Heatmaps coloured while ImGui draws the frame (gl/colorizer.h, issue 28's slider
// redraw): the cells get their colormap colours (in each of the shader's variants), a fade
// blends like any ImGui image, masked cells are hatched, and what ImGui draws after a
// heatmap keeps its own colours.
// Needs an X display: ctest runs it under xvfb-run ("gui heatmap colours", tests/gui/CMakeLists.txt).
#include <doctest/doctest.h>

#include <cmath>
#include <cstdlib>
#include <limits>
#include <vector>

#include "app/gui/display/colormap.h"
#include "app/gui/gl/colorizer.h"
#include "app/gui/gl/headless.h"
#include "app/gui/gl/offscreen.h"

using namespace attn::gui;

namespace {

constexpr int kSide = 200;  // the picture, kSide x kSide pixels

// The largest difference of R, G, B between pixel (x, y) and `expected` (0..255).
int distance(const std::vector<unsigned char>& px, int x, int y, Rgb expected) {
    const unsigned char* p = &px[(static_cast<size_t>(y) * kSide + x) * 4];
    const float want[3] = {expected.r, expected.g, expected.b};
    int most = 0;
    for (int c = 0; c < 3; ++c) most = std::max(most, std::abs(int{p[c]} - static_cast<int>(std::lround(want[c] * 255.0f))));
    return most;
}

}  // namespace

TEST_CASE("a heatmap is coloured as it is drawn: its colormap's colours, faded, hatched, and ImGui's colours after it") {
    if (std::getenv("DISPLAY") == nullptr) {
        MESSAGE("no X display (ctest runs this under xvfb-run): skipped");
        return;
    }
    HeadlessGl gl;
    REQUIRE(gl.ok());
    OffscreenRenderer renderer(kSide, kSide, 1.0f, false);
    REQUIRE(renderer.valid());
    gl::Colorizer colorizer;
    REQUIRE(colorizer.valid());
    // (2, 2): the range's ends on the first row, a middle value and a masked score below.
    const float inf = std::numeric_limits<float>::infinity();
    const std::vector<float> values = {-2.0f, 2.0f, 1.0f, -inf};
    const gl::Texture texture = gl::Colorizer::upload(values.data(), 2, 2);
    const Rgb masked{0.1f, 0.1f, 0.1f}, hatch{0.4f, 0.4f, 0.4f};
    // 16 picture texels per cell side, as a small masked map gets: room for the stripes.
    const gl::HeatmapColouring colouring{&colorizer, -2.0f, 2.0f, ColormapKind::Diverging, masked, hatch, 16};
    const auto draw = [&](ImU32 tint) {
        renderer.render([&](const Fonts&) {
            ImDrawList& list = *ImGui::GetBackgroundDrawList();
            list.AddRectFilled(ImVec2(0, 0), ImVec2(kSide, kSide), IM_COL32(0, 0, 0, 255));
            gl::Colorizer::add_image(list, texture, colouring, ImVec2(0, 0), ImVec2(kSide, 160), ImVec2(0, 0), ImVec2(1, 1), tint);
            list.AddRectFilled(ImVec2(0, 170), ImVec2(kSide, kSide), IM_COL32(0, 200, 0, 255));  // after the heatmap
        });
        return renderer.pixels();
    };
    const Rgb low = sample_colormap(ColormapKind::Diverging, 0.0f), high = sample_colormap(ColormapKind::Diverging, 1.0f);
    const Rgb three_quarters = sample_colormap(ColormapKind::Diverging, 0.75f);

    const std::vector<unsigned char> opaque = draw(IM_COL32_WHITE);
    CHECK(distance(opaque, 50, 40, low) <= 2);    // cell (0, 0): vmin
    CHECK(distance(opaque, 150, 40, high) <= 2);  // cell (0, 1): vmax
    CHECK(distance(opaque, 50, 120, three_quarters) <= 2);  // cell (1, 0): 1 on -2..2
    // Cell (1, 1) is masked: the fill crossed by stripes (their edges smoothed).
    int fill = 0, stripes = 0;
    for (int x = 101; x < 199; ++x) {
        fill += distance(opaque, x, 120, masked) <= 3;
        stripes += distance(opaque, x, 120, hatch) <= 3;
    }
    CHECK(fill > 15);
    CHECK(stripes > 15);
    CHECK(distance(opaque, 100, 185, Rgb{0.0f, 200.0f / 255.0f, 0.0f}) <= 1);  // ImGui's own colour again

    // The same values without the masked cell, one texel per cell: the variant for finite
    // values draws the same colours.
    const std::vector<float> finite_values = {-2.0f, 2.0f, 1.0f, 0.0f};
    const gl::Texture finite_texture = gl::Colorizer::upload(finite_values.data(), 2, 2);
    const gl::HeatmapColouring finite{&colorizer, -2.0f, 2.0f, ColormapKind::Diverging, masked, hatch, 1, true};
    renderer.render([&](const Fonts&) {
        gl::Colorizer::add_image(*ImGui::GetBackgroundDrawList(), finite_texture, finite, ImVec2(0, 0), ImVec2(kSide, 160),
                                 ImVec2(0, 0), ImVec2(1, 1));
    });
    const std::vector<unsigned char> plain = renderer.pixels();
    CHECK(distance(plain, 50, 40, low) <= 2);
    CHECK(distance(plain, 150, 40, high) <= 2);
    CHECK(distance(plain, 50, 120, three_quarters) <= 2);
    CHECK(distance(plain, 150, 120, sample_colormap(ColormapKind::Diverging, 0.5f)) <= 2);

    // Half faded over black: half of each colour, as ImGui blends a tinted image.
    const std::vector<unsigned char> faded = draw(IM_COL32(255, 255, 255, 128));
    const float half = 128.0f / 255.0f;
    CHECK(distance(faded, 150, 40, Rgb{high.r * half, high.g * half, high.b * half}) <= 2);
}
