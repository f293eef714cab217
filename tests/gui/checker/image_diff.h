// Comparing a rendered picture with its golden copy, with a tolerance for the small
// differences a software rasteriser (llvmpipe) may make between runs, builds or Mesa
// versions. No I/O: png_check loads the files, tests/gui/test_gui_image_diff.cpp tests
// the rule itself.
//
// The rule: a pixel differs when any of its R, G, B, A channels differs by more than
// `channel_tolerance`; the pictures match when both have the same size and at most
// `max_differing_fraction` of the pixels differ. A one-texel shift of a heatmap moves
// every cell edge and recolours whole cells, thousands of pixels; anti-aliasing noise
// changes a channel by a few steps, a handful of pixels.
#pragma once

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <vector>

namespace attn::testing {

// RGBA8, top row first, 4 bytes per pixel.
struct RgbaImage {
    int width = 0, height = 0;
    std::vector<unsigned char> rgba;
    const unsigned char* pixel(int x, int y) const { return &rgba[(static_cast<size_t>(y) * width + x) * 4]; }
};

struct DiffRule {
    int channel_tolerance = 24;             // a channel may differ by this much (of 255)
    double max_differing_fraction = 0.001;  // 0.1% of the pixels may differ
};

struct DiffReport {
    bool same_size = false;
    int64_t pixels = 0;                  // width * height
    int64_t differing = 0;               // pixels with a channel beyond the tolerance
    int largest = 0;                     // the largest channel difference of any pixel
    int largest_x = -1, largest_y = -1;  // where it is (the first such pixel, row by row)
    bool matches = false;                // same size and differing <= the allowed fraction
};

// The largest of the four channel differences of one pixel.
inline int pixel_difference(const unsigned char* a, const unsigned char* b) {
    int most = 0;
    for (int c = 0; c < 4; ++c) most = std::max(most, std::abs(static_cast<int>(a[c]) - static_cast<int>(b[c])));
    return most;
}

inline DiffReport compare_images(const RgbaImage& actual, const RgbaImage& golden, const DiffRule& rule = {}) {
    DiffReport r;
    r.same_size = actual.width == golden.width && actual.height == golden.height &&
                  actual.rgba.size() == golden.rgba.size() &&
                  actual.rgba.size() == static_cast<size_t>(actual.width) * actual.height * 4;
    if (!r.same_size) return r;
    r.pixels = static_cast<int64_t>(actual.width) * actual.height;
    for (int y = 0; y < actual.height; ++y) {
        for (int x = 0; x < actual.width; ++x) {
            const int d = pixel_difference(actual.pixel(x, y), golden.pixel(x, y));
            if (d > rule.channel_tolerance) ++r.differing;
            if (d > r.largest) {
                r.largest = d;
                r.largest_x = x;
                r.largest_y = y;
            }
        }
    }
    r.matches = static_cast<double>(r.differing) <= rule.max_differing_fraction * static_cast<double>(r.pixels);
    return r;
}

// A picture of the difference: the golden picture dimmed to grey, differing pixels in
// pure red, pixels within the tolerance but not equal in dark yellow. Same size as the
// inputs (call only when compare_images says same_size).
inline RgbaImage diff_picture(const RgbaImage& actual, const RgbaImage& golden, const DiffRule& rule = {}) {
    RgbaImage out{golden.width, golden.height, std::vector<unsigned char>(golden.rgba.size())};
    for (int y = 0; y < golden.height; ++y) {
        for (int x = 0; x < golden.width; ++x) {
            const unsigned char* g = golden.pixel(x, y);
            unsigned char* o = &out.rgba[(static_cast<size_t>(y) * golden.width + x) * 4];
            const int d = pixel_difference(actual.pixel(x, y), g);
            const auto grey = static_cast<unsigned char>((g[0] + g[1] + g[2]) / 12 + 32);
            if (d > rule.channel_tolerance) {
                o[0] = 255;
                o[1] = 0;
                o[2] = 0;
            } else if (d > 0) {
                o[0] = 160;
                o[1] = 140;
                o[2] = 0;
            } else {
                o[0] = o[1] = o[2] = grey;
            }
            o[3] = 255;
        }
    }
    return out;
}

}  // namespace attn::testing
