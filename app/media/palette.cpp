#include "app/media/palette.h"

#include <libimagequant.h>

#include <memory>
#include <unordered_map>

namespace attn::media {

namespace {

uint32_t packed(const unsigned char* p) { return uint32_t{p[0]} << 16 | uint32_t{p[1]} << 8 | p[2]; }

// The exact colours when there are at most `most` of them (false otherwise). Runs of one
// colour are the common case (flat cells, background), so the last lookup is kept.
bool exact_palette(const RgbaRegion& r, int most, IndexedImage& out) {
    std::unordered_map<uint32_t, uint8_t> index;
    index.reserve(2 * static_cast<size_t>(most));
    out.indices.resize(static_cast<size_t>(r.width) * r.height);
    size_t at = 0;
    uint32_t last = 0xffffffff;
    uint8_t last_index = 0;
    for (int row = 0; row < r.height; ++row) {
        const unsigned char* p = r.rgba + (static_cast<size_t>(r.y + row) * r.stride + r.x) * 4;
        for (int col = 0; col < r.width; ++col, p += 4) {
            const uint32_t colour = packed(p);
            if (colour != last) {
                const auto [it, added] = index.try_emplace(colour, static_cast<uint8_t>(out.palette.size()));
                if (added) {
                    if (static_cast<int>(out.palette.size()) == most) return false;
                    out.palette.push_back({p[0], p[1], p[2]});
                }
                last = colour;
                last_index = it->second;
            }
            out.indices[at++] = last_index;
        }
    }
    return true;
}

struct LiqFree {
    void operator()(liq_attr* a) const { liq_attr_destroy(a); }
    void operator()(liq_image* i) const { liq_image_destroy(i); }
    void operator()(liq_result* r) const { liq_result_destroy(r); }
};
template <typename T>
using LiqPtr = std::unique_ptr<T, LiqFree>;

// libimagequant's palette and mapping. The region is copied opaque (alpha 255), so
// the library never spends palette entries on transparency.
bool quantize_with_liq(const RgbaRegion& r, int most, int quality, IndexedImage& out) {
    const size_t pixels = static_cast<size_t>(r.width) * r.height;
    std::vector<unsigned char> opaque(pixels * 4);
    for (int row = 0; row < r.height; ++row) {
        const unsigned char* from = r.rgba + (static_cast<size_t>(r.y + row) * r.stride + r.x) * 4;
        unsigned char* to = opaque.data() + static_cast<size_t>(row) * r.width * 4;
        for (int col = 0; col < r.width; ++col, from += 4, to += 4) to[0] = from[0], to[1] = from[1], to[2] = from[2], to[3] = 255;
    }
    LiqPtr<liq_attr> attr(liq_attr_create());
    if (!attr || liq_set_max_colors(attr.get(), most) != LIQ_OK) return false;
    liq_set_speed(attr.get(), 8);  // hundreds of frames per export; 8 keeps a 1024x768 frame near 20 ms
    if (quality < 100) liq_set_quality(attr.get(), 0, quality);
    LiqPtr<liq_image> image(liq_image_create_rgba(attr.get(), opaque.data(), r.width, r.height, 0));
    if (!image) return false;
    liq_result* raw = nullptr;
    if (liq_image_quantize(image.get(), attr.get(), &raw) != LIQ_OK) return false;
    LiqPtr<liq_result> result(raw);
    liq_set_dithering_level(result.get(), 0.0f);
    out.indices.resize(pixels);
    if (liq_write_remapped_image(result.get(), image.get(), out.indices.data(), pixels) != LIQ_OK) return false;
    const liq_palette* palette = liq_get_palette(result.get());
    out.palette.clear();
    for (unsigned i = 0; i < palette->count; ++i) out.palette.push_back({palette->entries[i].r, palette->entries[i].g, palette->entries[i].b});
    return !out.palette.empty();
}

}  // namespace

IndexedImage quantize(const RgbaRegion& region, int max_colours, int quality) {
    const int most = max_colours < 2 ? 2 : (max_colours > 256 ? 256 : max_colours);
    IndexedImage out;
    if (exact_palette(region, most, out)) return out;
    out = IndexedImage{};
    if (!quantize_with_liq(region, most, quality, out)) out = IndexedImage{};  // out of memory: no palette
    return out;
}

}  // namespace attn::media
