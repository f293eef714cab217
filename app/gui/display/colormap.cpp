// Colour stops chosen by hand: see colormap.h for the intent.
#include "app/gui/display/colormap.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <vector>

namespace attn::gui {
namespace {

// Blue (negative) to warm white (zero) to red (positive); the two arms have matching
// lightness at equal distance from the centre, so neither sign looks "stronger".
constexpr std::array<Rgb, 9> kDivergingStops = {{
    {0.090f, 0.188f, 0.420f},
    {0.165f, 0.357f, 0.639f},
    {0.373f, 0.580f, 0.800f},
    {0.675f, 0.808f, 0.910f},
    {0.965f, 0.961f, 0.945f},
    {0.957f, 0.745f, 0.635f},
    {0.867f, 0.494f, 0.380f},
    {0.710f, 0.216f, 0.200f},
    {0.431f, 0.059f, 0.118f},
}};

// Dark violet through blue, teal and green to yellow: monotone in lightness.
constexpr std::array<Rgb, 8> kSequentialStops = {{
    {0.118f, 0.035f, 0.220f},
    {0.231f, 0.149f, 0.478f},
    {0.180f, 0.337f, 0.580f},
    {0.129f, 0.494f, 0.565f},
    {0.161f, 0.631f, 0.490f},
    {0.408f, 0.765f, 0.345f},
    {0.722f, 0.859f, 0.231f},
    {0.984f, 0.918f, 0.243f},
}};

// Okabe & Ito's eight colour-blind-safe hues (black swapped for a grey-blue).
template <size_t N>
Rgb interpolate(const std::array<Rgb, N>& stops, float t) {
    t = std::clamp(t, 0.0f, 1.0f);
    const float x = t * static_cast<float>(N - 1);
    const size_t i = std::min(static_cast<size_t>(x), N - 2);
    const float f = x - static_cast<float>(i);
    const Rgb& a = stops[i];
    const Rgb& b = stops[i + 1];
    return {a.r + (b.r - a.r) * f, a.g + (b.g - a.g) * f, a.b + (b.b - a.b) * f};
}

uint8_t to_byte(float v) {
    return static_cast<uint8_t>(std::lround(std::clamp(v, 0.0f, 1.0f) * 255.0f));
}

}  // namespace

Rgb sample_colormap(ColormapKind kind, float t) {
    if (std::isnan(t)) t = 0.5f;
    switch (kind) {
        case ColormapKind::Diverging: return interpolate(kDivergingStops, t);
        case ColormapKind::Sequential: return interpolate(kSequentialStops, t);
        case ColormapKind::Neutral: break;
    }
    return {0.596f, 0.639f, 0.722f};  // one slate grey-blue, readable under dark or light text
}

std::vector<uint8_t> colormap_table(ColormapKind kind) {
    std::vector<uint8_t> table(256 * 4);
    for (int i = 0; i < 256; ++i) {
        const Rgb c = sample_colormap(kind, static_cast<float>(i) / 255.0f);
        table[i * 4 + 0] = to_byte(c.r);
        table[i * 4 + 1] = to_byte(c.g);
        table[i * 4 + 2] = to_byte(c.b);
        table[i * 4 + 3] = 255;
    }
    return table;
}

float colormap_position(float value, float vmin, float vmax) {
    if (!(vmax > vmin) || std::isnan(value)) return 0.5f;
    return std::clamp((value - vmin) / (vmax - vmin), 0.0f, 1.0f);
}

float luminance(Rgb c) { return 0.2126f * c.r + 0.7152f * c.g + 0.0722f * c.b; }

float relative_luminance(Rgb c) {
    const auto lin = [](float v) {
        return v <= 0.04045f ? v / 12.92f : std::pow((v + 0.055f) / 1.055f, 2.4f);
    };
    return 0.2126f * lin(c.r) + 0.7152f * lin(c.g) + 0.0722f * lin(c.b);
}

float contrast_ratio(Rgb a, Rgb b) {
    const float la = relative_luminance(a), lb = relative_luminance(b);
    return (std::max(la, lb) + 0.05f) / (std::min(la, lb) + 0.05f);
}

Rgb with_contrast(Rgb c, Rgb bg, float min_ratio) {
    const float target = relative_luminance(bg) > 0.18f ? 0.0f : 1.0f;
    Rgb out = c;
    for (int i = 0; i < 40 && contrast_ratio(out, bg) < min_ratio; ++i) {
        out.r += (target - out.r) * 0.08f;
        out.g += (target - out.g) * 0.08f;
        out.b += (target - out.b) * 0.08f;
    }
    return out;
}

Rgb oklab_to_srgb(float lightness, float a, float b) {
    const float l = lightness + 0.3963377774f * a + 0.2158037573f * b;
    const float m = lightness - 0.1055613458f * a - 0.0638541728f * b;
    const float s = lightness - 0.0894841775f * a - 1.2914855480f * b;
    const float l3 = l * l * l, m3 = m * m * m, s3 = s * s * s;
    const auto encode = [](float linear) {
        const float v = std::clamp(linear, 0.0f, 1.0f);
        return v <= 0.0031308f ? 12.92f * v : 1.055f * std::pow(v, 1.0f / 2.4f) - 0.055f;
    };
    return {encode(4.0767416621f * l3 - 3.3077115913f * m3 + 0.2309699292f * s3),
            encode(-1.2684380046f * l3 + 2.6097574011f * m3 - 0.3413193965f * s3),
            encode(-0.0041960863f * l3 - 0.7034186147f * m3 + 1.7076147010f * s3)};
}

Rgb srgb_to_oklab(Rgb c) {
    const auto decode = [](float v) { return v <= 0.04045f ? v / 12.92f : std::pow((v + 0.055f) / 1.055f, 2.4f); };
    const float r = decode(c.r), g = decode(c.g), b = decode(c.b);
    const float l = std::cbrt(0.4122214708f * r + 0.5363288632f * g + 0.0514459929f * b);
    const float m = std::cbrt(0.2119034982f * r + 0.6806995451f * g + 0.1073969566f * b);
    const float s = std::cbrt(0.0883024619f * r + 0.2817188376f * g + 0.6299787005f * b);
    return {0.2104542553f * l + 0.7936177850f * m - 0.0040720468f * s,
            1.9779984951f * l - 2.4285922050f * m + 0.4505937099f * s,
            0.0259040371f * l + 0.7827717662f * m - 0.8086757660f * s};
}

namespace {

// The head palette: 11 evenly spaced OKLab hues (equal steps look equal) in 3 lightness
// steps, each step's hues turned by a third of a hue step (33 colours on a staggered
// lattice, no two nearly alike), visited farthest first: each next head takes the colour
// farthest from every head before it, so 2, 4, 8 or 16 heads differ as much as they can.
// (The old 16 hues x 2 lightness made heads 4/25 and 14/19 near twins.)
std::array<Rgb, kDistinctHeads> make_head_palette() {
    constexpr int kHues = 11;
    constexpr float kLightness[] = {0.84f, 0.70f, 0.56f};
    constexpr float kChroma = 0.15f;
    std::vector<Rgb> slots;  // sRGB, and the OKLab they really have after gamut clipping
    std::vector<Rgb> lab;
    for (int level = 0; level < 3; ++level) {
        for (int k = 0; k < kHues; ++k) {
            const float hue = (static_cast<float>(k) + static_cast<float>(level) / 3.0f) / kHues * 6.2831853f;
            slots.push_back(oklab_to_srgb(kLightness[level], kChroma * std::cos(hue), kChroma * std::sin(hue)));
            lab.push_back(srgb_to_oklab(slots.back()));
        }
    }
    const auto distance = [&](size_t a, size_t b) {
        const float dl = lab[a].r - lab[b].r, da = lab[a].g - lab[b].g, db = lab[a].b - lab[b].b;
        return dl * dl + da * da + db * db;
    };
    std::array<Rgb, kDistinctHeads> palette{};
    std::vector<size_t> taken{0};  // head 0: the lightest pink, as before
    palette[0] = slots[0];
    for (size_t head = 1; head < palette.size(); ++head) {
        size_t best = 0;
        float best_distance = -1.0f;
        for (size_t c = 0; c < slots.size(); ++c) {
            if (std::find(taken.begin(), taken.end(), c) != taken.end()) continue;
            float nearest = 1e9f;
            for (size_t t : taken) nearest = std::min(nearest, distance(c, t));
            if (nearest > best_distance) best_distance = nearest, best = c;
        }
        taken.push_back(best);
        palette[head] = slots[best];
    }
    return palette;
}

}  // namespace

Rgb head_color(int head) {
    static const std::array<Rgb, kDistinctHeads> palette = make_head_palette();
    return palette[static_cast<size_t>(((head % kDistinctHeads) + kDistinctHeads) % kDistinctHeads)];
}

uint32_t pack_rgba(Rgb c, float alpha) {
    return static_cast<uint32_t>(to_byte(c.r)) | (static_cast<uint32_t>(to_byte(c.g)) << 8) |
           (static_cast<uint32_t>(to_byte(c.b)) << 16) |
           (static_cast<uint32_t>(to_byte(alpha)) << 24);
}

}  // namespace attn::gui
