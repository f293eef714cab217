#include <doctest/doctest.h>

#include "app/gui/display/colormap.h"
#include "app/gui/kit/fonts_theme.h"

using namespace attn::gui;

namespace {

Rgb from_packed(uint32_t c) {  // IM_COL32 layout: A B G R from high to low byte
    return Rgb{static_cast<float>(c & 0xFF) / 255.0f, static_cast<float>((c >> 8) & 0xFF) / 255.0f,
               static_cast<float>((c >> 16) & 0xFF) / 255.0f};
}

}  // namespace

TEST_CASE("contrast ratios follow WCAG 2") {
    CHECK(contrast_ratio(Rgb{0, 0, 0}, Rgb{1, 1, 1}) == doctest::Approx(21.0));
    CHECK(contrast_ratio(Rgb{0.5f, 0.5f, 0.5f}, Rgb{0.5f, 0.5f, 0.5f}) == doctest::Approx(1.0));
    // #767676 on white is the classic "just AA" grey (4.54:1).
    const float g = 118.0f / 255.0f;
    CHECK(contrast_ratio(Rgb{g, g, g}, Rgb{1, 1, 1}) == doctest::Approx(4.54).epsilon(0.01));
}

TEST_CASE("every panel text colour reaches AA contrast in both themes") {
    for (bool light : {false, true}) {
        CAPTURE(light);
        const ThemeColors c = theme_colors(light);
        for (const Rgb& text : {c.text, c.dim, c.formula, c.good, c.warning, c.error, c.busy}) {
            CAPTURE(text.r);
            CAPTURE(text.g);
            CAPTURE(text.b);
            CHECK(contrast_ratio(text, c.window_bg) >= 4.5f);
        }
        CHECK(contrast_ratio(Rgb{1, 1, 1}, c.chip_bg) >= 4.5f);
    }
}

TEST_CASE("canvas text and head labels reach AA contrast on the canvas") {
    for (bool light : {false, true}) {
        CAPTURE(light);
        const CanvasPalette p = canvas_palette(light);
        const Rgb bg = from_packed(p.background);
        CHECK(contrast_ratio(bg, p.background_rgb) == doctest::Approx(1.0).epsilon(0.01));
        CHECK(contrast_ratio(from_packed(p.text), bg) >= 4.5f);
        CHECK(contrast_ratio(from_packed(p.dim_text), bg) >= 4.5f);
        CHECK(contrast_ratio(from_packed(p.notice), bg) >= 4.5f);
        for (int head = 0; head < 24; ++head) {
            CAPTURE(head);
            CHECK(contrast_ratio(with_contrast(head_color(head), bg, 4.5f), bg) >= 4.5f);
        }
    }
}
