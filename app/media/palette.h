// Colour quantisation for GIF frames: at most 256 colours per frame, chosen from that
// frame's own pixels, so each frame's colour scales keep their colours (a heatmap cell's
// colour moves by at most a few levels of 255, never to a neighbouring stop).
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace attn::media {

using Rgb8 = std::array<uint8_t, 3>;

// A region of an RGBA8 image (top row first), `stride` pixels per row.
struct RgbaRegion {
    const unsigned char* rgba = nullptr;
    int stride = 0;
    int x = 0, y = 0, width = 0, height = 0;
};

// The region as palette indices (width * height, row by row) and its palette.
struct IndexedImage {
    std::vector<uint8_t> indices;
    std::vector<Rgb8> palette;  // 1..256 entries
};

// A frame with at most 256 distinct colours keeps them exactly. Otherwise median cut
// over a 6-bit-per-channel histogram weighted by pixel count, each box's colour the mean
// of its pixels, each pixel mapped to the palette entry nearest its histogram cell (no
// dithering, which would speckle flat heatmap cells). Alpha is ignored.
IndexedImage quantize(const RgbaRegion& region);

}  // namespace attn::media
