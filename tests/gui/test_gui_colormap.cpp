#include <doctest/doctest.h>

#include <cstddef>

#include "app/gui/colormap.h"

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

TEST_CASE("sixteen heads get sixteen different colours") {
    for (int a = 0; a < 16; ++a) {
        for (int b = a + 1; b < 16; ++b) {
            CAPTURE(a);
            CAPTURE(b);
            CHECK(pack_rgba(head_color(a)) != pack_rgba(head_color(b)));
        }
    }
}
