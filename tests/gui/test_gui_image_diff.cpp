// The golden-picture rule (tests/gui/checker/image_diff.h) must tell a moved picture from
// rasteriser noise: a one-pixel shift or a one-texel shift of a heatmap fails it, ±1 on
// every channel passes.
#include <doctest/doctest.h>

#include <algorithm>
#include <cstdint>
#include <random>
#include <vector>

#include "tests/gui/checker/image_diff.h"

using attn::testing::compare_images;
using attn::testing::diff_picture;
using attn::testing::DiffReport;
using attn::testing::RgbaImage;

namespace {

constexpr int kWidth = 240, kHeight = 150, kCell = 12;

// A heatmap-like picture: cells of kCell x kCell pixels, each coloured by its texel
// (column + `texel_shift`, row) through a made-up colour map, with a one-pixel dark grid
// line between cells. `pixel_shift` moves the whole picture right by that many pixels.
RgbaImage heatmap(int pixel_shift = 0, int texel_shift = 0) {
    RgbaImage img{kWidth, kHeight, std::vector<unsigned char>(static_cast<size_t>(kWidth) * kHeight * 4)};
    for (int y = 0; y < kHeight; ++y) {
        for (int x = 0; x < kWidth; ++x) {
            const int sx = std::max(0, x - pixel_shift);
            const int texel = sx / kCell + texel_shift, row = y / kCell;
            const bool grid = sx % kCell == 0 || y % kCell == 0;
            const int v = (texel * 37 + row * 91) % 256;
            unsigned char* p = &img.rgba[(static_cast<size_t>(y) * kWidth + x) * 4];
            p[0] = grid ? 20 : static_cast<unsigned char>(v);
            p[1] = grid ? 20 : static_cast<unsigned char>(255 - v);
            p[2] = grid ? 20 : static_cast<unsigned char>((v * 3) % 256);
            p[3] = 255;
        }
    }
    return img;
}

}  // namespace

TEST_CASE("golden pictures: the same picture matches with no differing pixel") {
    const DiffReport r = compare_images(heatmap(), heatmap());
    CHECK(r.matches);
    CHECK(r.differing == 0);
    CHECK(r.largest == 0);
}

TEST_CASE("golden pictures: a picture shifted by one pixel fails") {
    const DiffReport r = compare_images(heatmap(1), heatmap());
    CHECK_FALSE(r.matches);
    CHECK(r.same_size);
    // Every cell edge moved: about two columns of pixels per cell differ.
    CHECK(r.differing > static_cast<int64_t>(kHeight) * (kWidth / kCell));
    CHECK(r.largest > 24);
    CHECK(r.largest_x >= 0);
}

TEST_CASE("golden pictures: a heatmap whose texture is read one texel off fails") {
    const DiffReport r = compare_images(heatmap(0, 1), heatmap());
    CHECK_FALSE(r.matches);
    CHECK(r.differing > r.pixels / 2);  // nearly every cell shows its neighbour's colour
}

TEST_CASE("golden pictures: ±1 noise on every channel passes") {
    RgbaImage noisy = heatmap();
    std::mt19937 rng(7);
    std::uniform_int_distribution<int> step(-1, 1);
    for (unsigned char& c : noisy.rgba) c = static_cast<unsigned char>(std::clamp(c + step(rng), 0, 255));
    const DiffReport r = compare_images(noisy, heatmap());
    CHECK(r.matches);
    CHECK(r.differing == 0);
    CHECK(r.largest == 1);
}

TEST_CASE("golden pictures: a few wrong pixels pass, more than 0.1% fail") {
    RgbaImage few = heatmap(), many = heatmap();
    const int allowed = kWidth * kHeight / 1000;  // 36 of 36,000
    // Red channel pushed to the far end: a difference of at least 128.
    auto spoil = [](RgbaImage& img, int count) {
        for (int i = 0; i < count; ++i) {
            unsigned char& red = img.rgba[static_cast<size_t>(i) * 4 * 7];
            red = red < 128 ? 255 : 0;
        }
    };
    spoil(few, allowed);
    spoil(many, allowed + 1);
    CHECK(compare_images(few, heatmap()).matches);
    const DiffReport r = compare_images(many, heatmap());
    CHECK_FALSE(r.matches);
    CHECK(r.differing == allowed + 1);
    CHECK(r.largest >= 128);
    // Where the largest difference is: one of the spoiled pixels (every 7th from the first).
    const int at = r.largest_y * kWidth + r.largest_x;
    CHECK(at % 7 == 0);
    CHECK(at / 7 <= allowed);
}

TEST_CASE("golden pictures: a different size fails, and the diff picture marks exactly the differing pixels") {
    RgbaImage smaller{kWidth - 1, kHeight, std::vector<unsigned char>(static_cast<size_t>(kWidth - 1) * kHeight * 4)};
    CHECK_FALSE(compare_images(smaller, heatmap()).same_size);
    CHECK_FALSE(compare_images(smaller, heatmap()).matches);

    const RgbaImage shifted = heatmap(1), golden = heatmap();
    const DiffReport r = compare_images(shifted, golden);
    const RgbaImage diff = diff_picture(shifted, golden);
    int64_t red = 0;
    for (int y = 0; y < diff.height; ++y)
        for (int x = 0; x < diff.width; ++x)
            if (diff.pixel(x, y)[0] == 255 && diff.pixel(x, y)[1] == 0) ++red;
    CHECK(red == r.differing);
}
