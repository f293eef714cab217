// Colormaps and head colours: pure functions, no GL, no ImGui.
//
// Diverging (signed values): deep blue -> near white -> deep red, centred on zero.
// Sequential (probabilities): dark violet -> blue -> teal -> green -> yellow, rising in
// lightness so it reads in greyscale, on a projector and for colour-blind viewers.
// The stops below are our own; the GPU samples a 256-entry table built from them.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace attn::gui {

struct Rgb {
    float r = 0, g = 0, b = 0;  // 0..1
};

// Diverging: signed values around 0. Sequential: 0..1 probabilities. Neutral: ids such as
// token numbers, which name things rather than measure them, so every cell gets one colour.
enum class ColormapKind { Diverging, Sequential, Neutral };

// Colour at t in [0, 1] (clamped) by piecewise-linear interpolation of the stops.
Rgb sample_colormap(ColormapKind kind, float t);
// The 256 x RGBA8 table the heatmap shader looks up.
std::vector<uint8_t> colormap_table(ColormapKind kind);
// Where `value` falls on the colormap for the range [vmin, vmax] (0..1, clamped;
// 0.5 when the range is empty).
float colormap_position(float value, float vmin, float vmax);
// Relative luminance (0..1); used to pick black or white text on a cell.
float luminance(Rgb c);

// WCAG 2 relative luminance (sRGB decoded to linear light), 0..1.
float relative_luminance(Rgb c);
// WCAG 2 contrast ratio of two colours, 1..21 (AA asks 4.5 for normal text).
float contrast_ratio(Rgb a, Rgb b);
// `c` moved towards black (on light backgrounds) or white (on dark ones) just far enough
// to reach `min_ratio` against `bg`: head colours used as text stay recognisable.
Rgb with_contrast(Rgb c, Rgb bg, float min_ratio);

// Heads with a colour of their own (the window allows up to 32 heads); past that colours repeat.
constexpr int kDistinctHeads = 32;
// One colour per head, the same in every step: 11 hues in 3 lightness steps, visited
// farthest first, every pair of the 32 apart in OKLab (tested).
Rgb head_color(int head);
// OKLab (L, a, b) to sRGB (clipped to the gamut), and back: for the head palette and its test.
Rgb oklab_to_srgb(float lightness, float a, float b);
Rgb srgb_to_oklab(Rgb c);  // returns (L, a, b) in r, g, b

// Packs to ImGui's IM_COL32 layout (ABGR in a uint32) without including ImGui.
uint32_t pack_rgba(Rgb c, float alpha = 1.0f);

}  // namespace attn::gui
