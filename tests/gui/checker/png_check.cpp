// png_check: asserts on the PNG files `attnviz snapshot` wrote. No display needed.
//
//   png_check DIR [--count N] [--differs-from OTHER_DIR]
//
// Checks: DIR holds N (or at least one) NN_<step>.png files; each is a real picture
// (many distinct colours, not one flat fill); images of different steps differ; with
// --differs-from, at least one same-named image in OTHER_DIR differs (another progress).
// Prints one line per failure and exits 1; exits 0 when everything holds.
#include <stb_image.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <set>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace {

struct Image {
    int w = 0, h = 0;
    std::vector<unsigned char> rgba;
};

bool load(const fs::path& path, Image& out) {
    int n = 0;
    unsigned char* data = stbi_load(path.string().c_str(), &out.w, &out.h, &n, 4);
    if (!data) return false;
    out.rgba.assign(data, data + static_cast<size_t>(out.w) * out.h * 4);
    stbi_image_free(data);
    return true;
}

// Distinct colours on a sparse grid of pixels: a blank or flat image has very few.
size_t distinct_colours(const Image& img) {
    std::set<unsigned> seen;
    for (int y = 0; y < img.h; y += 3) {
        for (int x = 0; x < img.w; x += 3) {
            const unsigned char* p = &img.rgba[(static_cast<size_t>(y) * img.w + x) * 4];
            seen.insert(static_cast<unsigned>(p[0]) << 16 | static_cast<unsigned>(p[1]) << 8 | p[2]);
        }
    }
    return seen.size();
}

std::vector<fs::path> pngs(const fs::path& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (const auto& e : fs::directory_iterator(dir, ec)) {
        if (e.path().extension() == ".png") out.push_back(e.path());
    }
    std::sort(out.begin(), out.end());
    return out;
}

}  // namespace

int main(int argc, char** argv) {
    if (argc < 2) {
        std::fprintf(stderr, "usage: png_check DIR [--count N] [--differs-from DIR2]\n");
        return 2;
    }
    const fs::path dir = argv[1];
    int expected = -1;
    fs::path other;
    for (int i = 2; i + 1 < argc; i += 2) {
        const std::string flag = argv[i];
        if (flag == "--count") expected = std::atoi(argv[i + 1]);
        else if (flag == "--differs-from") other = argv[i + 1];
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
    if (failures == 0) std::printf("ok: %zu images in %s\n", files.size(), dir.string().c_str());
    return failures == 0 ? 0 : 1;
}
