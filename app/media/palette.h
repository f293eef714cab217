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
    std::vector<Rgb8> palette;  // 1..max_colours entries
};

// A frame with at most `max_colours` (2..256) distinct colours keeps them exactly.
// Otherwise libimagequant (pngquant's library) chooses the palette and maps the pixels,
// with light dithering: its dithering follows edges and leaves flat areas such as heatmap
// cells unspeckled. Alpha is ignored (frames are opaque). The GIF writer asks for 255 so
// that one index is left for "unchanged since the frame before". An empty palette when
// libimagequant runs out of memory.
// `quality` (0..100) below 100 lets libimagequant use fewer colours where the picture
// allows (pngquant's --quality 0-N): less to store for a frame shown a 30th of a second.
IndexedImage quantize(const RgbaRegion& region, int max_colours = 256, int quality = 100);

}  // namespace attn::media
