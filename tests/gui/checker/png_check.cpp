// png_check: asserts on the PNG files `attnviz snapshot` wrote. No display needed.
//
//   png_check DIR [--count N] [--differs-from OTHER_DIR] [--matches GOLDEN_DIR]
//
// Checks: DIR holds N (or at least one) NN_<step>.png files; each is a real picture
// (many distinct colours, not one flat fill); images of different steps differ; with
// --differs-from, at least one same-named image in OTHER_DIR differs (another progress);
// with --matches, DIR and GOLDEN_DIR hold the same file names and each picture matches
// its golden copy by the rule of image_diff.h (a failing one gets DIR/<name>.diff.png).
// With ATTNVIZ_UPDATE_GOLDEN=1 in the environment, --matches instead replaces the
// golden pictures by DIR's (`make golden`).
// Prints one line per failure and exits 1; exits 0 when everything holds.
#include <stb_image.h>
#include <stb_image_write.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

#include "tests/gui/checker/image_diff.h"

namespace fs = std::filesystem;

namespace {

using Image = attn::testing::RgbaImage;

bool load(const fs::path& path, Image& out) {
    int n = 0;
    unsigned char* data = stbi_load(path.string().c_str(), &out.width, &out.height, &n, 4);
    if (!data) return false;
    out.rgba.assign(data, data + static_cast<size_t>(out.width) * out.height * 4);
    stbi_image_free(data);
    return true;
}

// Distinct colours on a sparse grid of pixels: a blank or flat image has very few.
size_t distinct_colours(const Image& img) {
    std::set<unsigned> seen;
    for (int y = 0; y < img.height; y += 3) {
        for (int x = 0; x < img.width; x += 3) {
            const unsigned char* p = img.pixel(x, y);
            seen.insert(static_cast<unsigned>(p[0]) << 16 | static_cast<unsigned>(p[1]) << 8 | p[2]);
        }
    }
    return seen.size();
}

std::vector<fs::path> pngs(const fs::path& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        const std::string name = e.path().filename().string();
        if (e.path().extension() == ".png" && name.find(".diff.") == std::string::npos) out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

std::set<std::string> names_of(const std::vector<fs::path>& files) {
    std::set<std::string> names;
    for (const fs::path& f : files) names.insert(f.filename().string());
    return names;
}

// ATTNVIZ_UPDATE_GOLDEN=1: the golden folder becomes a copy of DIR's pictures.
int update_golden(const fs::path& dir, const fs::path& golden) {
    std::error_code ec;
    fs::create_directories(golden, ec);
    for (const fs::path& old : pngs(golden)) fs::remove(old, ec);
    for (const fs::path& f : pngs(dir)) {
        fs::copy_file(f, golden / f.filename(), fs::copy_options::overwrite_existing, ec);
        if (ec) {
            std::printf("FAIL could not copy %s to %s: %s\n", f.string().c_str(), golden.string().c_str(), ec.message().c_str());
            return 1;
        }
    }
    std::printf("updated %zu golden pictures in %s\n", pngs(golden).size(), golden.string().c_str());
    return 0;
}

// Each picture in DIR against its golden copy; returns the number of failures.
int match_golden(const fs::path& dir, const fs::path& golden) {
    const attn::testing::DiffRule rule;
    const auto files = pngs(dir), expected = pngs(golden);
    int failures = 0;
    for (const std::string& name : names_of(expected))
        if (!names_of(files).count(name)) {
            std::printf("FAIL %s: no such picture was drawn (golden %s)\n", name.c_str(), (golden / name).string().c_str());
            ++failures;
        }
    for (const fs::path& f : files) {
        Image actual, reference;
        if (!load(golden / f.filename(), reference)) {
            std::printf("FAIL %s: no golden picture %s (make golden adds it)\n", f.string().c_str(), (golden / f.filename()).string().c_str());
            ++failures;
            continue;
        }
        if (!load(f, actual)) continue;  // reported by the checks above
        const attn::testing::DiffReport r = attn::testing::compare_images(actual, reference, rule);
        if (!r.same_size) {
            std::printf("FAIL %s: %dx%d, golden is %dx%d\n", f.string().c_str(), actual.width, actual.height, reference.width, reference.height);
            ++failures;
            continue;
        }
        std::printf("%s %s: %lld of %lld pixels differ by more than %d (allowed %.1f%%)", r.matches ? "ok" : "FAIL",
                    f.filename().string().c_str(), static_cast<long long>(r.differing), static_cast<long long>(r.pixels),
                    rule.channel_tolerance, rule.max_differing_fraction * 100.0);
        if (r.largest > 0) std::printf("; largest difference %d at (%d, %d)\n", r.largest, r.largest_x, r.largest_y);
        else std::printf("; identical\n");
        if (r.matches) continue;
        ++failures;
        const Image diff = attn::testing::diff_picture(actual, reference, rule);
        fs::path diff_path = f;
        diff_path.replace_extension(".diff.png");
        if (stbi_write_png(diff_path.string().c_str(), diff.width, diff.height, 4, diff.rgba.data(), diff.width * 4))
            std::printf("     diff picture (red: differing pixels): %s\n", diff_path.string().c_str());
    }
    return failures;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: png_check DIR [--count N] [--differs-from DIR2] [--matches GOLDEN_DIR]\n");
        return 2;
    }
    const fs::path dir = argv[1];
    int expected = -1;
    fs::path other, golden;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--count") expected = std::atoi(argv[i + 1]);
        else if (flag == "--differs-from") other = argv[i + 1];
        else if (flag == "--matches") golden = argv[i + 1];
    }
    int failures = 0;
    const auto files = pngs(dir);
    if (files.empty() || (expected >= 0 && static_cast<int>(files.size()) != expected)) {
        std::printf("FAIL %s: %zu PNG files, expected %d\n", dir.string().c_str(), files.size(), expected);
        ++failures;
    }
    std::vector<Image> images(files.size());
    for (size_t i = 0; i < files.size(); ++i) {
        if (!load(files[i], images[i])) {
            std::printf("FAIL %s: not a readable PNG\n", files[i].string().c_str());
            ++failures;
            continue;
        }
        const size_t colours = distinct_colours(images[i]);
        if (colours < 12) {
            std::printf("FAIL %s: looks blank (%zu colours)\n", files[i].string().c_str(), colours);
            ++failures;
        }
        if (i > 0 && images[i].rgba == images[i - 1].rgba) {
            std::printf("FAIL %s: identical to %s\n", files[i].string().c_str(), files[i - 1].string().c_str());
            ++failures;
        }
    }
    if (!other.empty()) {
        bool any_differs = false;
        for (size_t i = 0; i < files.size(); ++i) {
            Image b;
            if (load(other / files[i].filename(), b) && b.rgba != images[i].rgba) any_differs = true;
        }
        if (!any_differs) {
            std::printf("FAIL %s and %s: every image is the same\n", dir.string().c_str(), other.string().c_str());
            ++failures;
        }
    }
    // A new golden picture must pass the checks above first (not blank, one per step).
    const char* update = std::getenv("ATTNVIZ_UPDATE_GOLDEN");
    if (!golden.empty() && update && std::string(update) == "1") return failures == 0 ? update_golden(dir, golden) : 1;
    if (!golden.empty()) failures += match_golden(dir, golden);
    if (failures == 0) std::printf("ok: %zu images in %s\n", files.size(), dir.string().c_str());
    return failures == 0 ? 0 : 1;
}
