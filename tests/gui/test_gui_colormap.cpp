#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <cstddef>

#include "app/gui/display/colormap.h"

using namespace attn::gui;

TEST_CASE("the diverging colormap is near white at zero and blue and red at the ends") {
    const Rgb mid = sample_colormap(ColormapKind::Diverging, 0.5f);
    CHECK(mid.r > 0.9f);
    CHECK(mid.g > 0.9f);
    CHECK(mid.b > 0.9f);
    const Rgb lo = sample_colormap(ColormapKind::Diverging, 0.0f);
    const Rgb hi = sample_colormap(ColormapKind::Diverging, 1.0f);
    CHECK(lo.b > lo.r);
    CHECK(hi.r > hi.b);
}

TEST_CASE("the sequential colormap rises in lightness from end to end") {
    float previous = -1.0f;
    for (int i = 0; i <= 32; ++i) {
        const float l = luminance(sample_colormap(ColormapKind::Sequential, static_cast<float>(i) / 32.0f));
        CAPTURE(i);
        CHECK(l > previous);
        previous = l;
    }
}

TEST_CASE("the diverging colormap has arms of equal lightness at equal distance from zero") {
    for (int i = 1; i <= 8; ++i) {
        const float d = static_cast<float>(i) / 16.0f;
        CAPTURE(d);
        CHECK(luminance(sample_colormap(ColormapKind::Diverging, 0.5f - d)) ==
              doctest::Approx(luminance(sample_colormap(ColormapKind::Diverging, 0.5f + d))).epsilon(0.2));
    }
}

TEST_CASE("colormap positions clamp, and an empty range maps to the middle") {
    CHECK(colormap_position(-5.0f, -1.0f, 1.0f) == 0.0f);
    CHECK(colormap_position(5.0f, -1.0f, 1.0f) == 1.0f);
    CHECK(colormap_position(0.0f, -1.0f, 1.0f) == doctest::Approx(0.5f));
    CHECK(colormap_position(3.0f, 2.0f, 2.0f) == 0.5f);
}

TEST_CASE("the colormap table has 256 opaque entries matching the sampled colours") {
    const auto table = colormap_table(ColormapKind::Sequential);
    REQUIRE(table.size() == 256u * 4u);
    for (int i = 0; i < 256; i += 51) {
        const Rgb c = sample_colormap(ColormapKind::Sequential, static_cast<float>(i) / 255.0f);
        CAPTURE(i);
        CHECK(table[static_cast<std::size_t>(i) * 4] == static_cast<int>(c.r * 255.0f + 0.5f));
        CHECK(table[static_cast<std::size_t>(i) * 4 + 3] == 255);
    }
}

// OKLab distance x 100: about 2 is just noticeable side by side.
static float head_distance(int a, int b) {
    const Rgb x = srgb_to_oklab(head_color(a)), y = srgb_to_oklab(head_color(b));
    return 100.0f * std::sqrt((x.r - y.r) * (x.r - y.r) + (x.g - y.g) * (x.g - y.g) + (x.b - y.b) * (x.b - y.b));
}

TEST_CASE("every pair of heads up to the most the window allows gets distinct colours") {
    // The old palette: heads 8..15 were pale tints of 0..7 and 24..31 repeated 0..7 exactly.
    // At 32 heads the old 16 hues x 2 lightness left near twins (4/25, 14/19, 10/31: 4.5).
    const struct { int heads; float min_distance; } groups[] = {{8, 12.0f}, {16, 8.0f}, {kDistinctHeads, 6.0f}};
    for (const auto& g : groups) {
        float smallest = 1e9f;
        for (int a = 0; a < g.heads; ++a)
            for (int b = a + 1; b < g.heads; ++b) smallest = std::min(smallest, head_distance(a, b));
        CAPTURE(g.heads);
        CHECK(smallest >= g.min_distance);
    }
    CHECK(head_distance(24, 0) > 6.0f);
    CHECK(head_distance(4, 25) > 6.0f);
    CHECK(head_distance(14, 19) > 6.0f);
    CHECK(head_distance(10, 31) > 6.0f);
    CHECK(pack_rgba(head_color(kDistinctHeads)) == pack_rgba(head_color(0)));  // documented wrap
}

TEST_CASE("OKLab round trip") {
    const Rgb c{0.2f, 0.5f, 0.8f};
    const Rgb lab = srgb_to_oklab(c);
    const Rgb back = oklab_to_srgb(lab.r, lab.g, lab.b);
    CHECK(back.r == doctest::Approx(c.r).epsilon(0.01));
    CHECK(back.b == doctest::Approx(c.b).epsilon(0.01));
}
