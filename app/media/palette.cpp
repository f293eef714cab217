#include "app/media/palette.h"

#include <algorithm>
#include <unordered_map>

namespace attn::media {

namespace {

constexpr int kMaxColours = 256;
constexpr int kCellBits = 6;  // per channel: cells 4 levels wide
constexpr int kCells = 1 << (3 * kCellBits);

uint32_t packed(const unsigned char* p) { return uint32_t{p[0]} << 16 | uint32_t{p[1]} << 8 | p[2]; }
int cell_of(const unsigned char* p) {
    constexpr int shift = 8 - kCellBits;
    return (p[0] >> shift) << (2 * kCellBits) | (p[1] >> shift) << kCellBits | (p[2] >> shift);
}

template <typename Visit>
void for_each_pixel(const RgbaRegion& r, Visit&& visit) {
    for (int row = 0; row < r.height; ++row) {
        const unsigned char* p = r.rgba + (static_cast<size_t>(r.y + row) * r.stride + r.x) * 4;
        for (int col = 0; col < r.width; ++col, p += 4) visit(p);
    }
}

// The exact colours when there are at most 256 of them (false otherwise). Runs of one
// colour are the common case (flat cells, background), so the last lookup is kept.
bool exact_palette(const RgbaRegion& r, IndexedImage& out) {
    std::unordered_map<uint32_t, uint8_t> index;
    index.reserve(2 * kMaxColours);
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
                    if (out.palette.size() == kMaxColours) return false;
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

// One occupied histogram cell: its population and the sums of its pixels' channels.
struct Cell {
    int id = 0;
    uint32_t count = 0;
    uint64_t sum[3] = {0, 0, 0};
    int coord(int axis) const { return (id >> (kCellBits * (2 - axis))) & ((1 << kCellBits) - 1); }
};

// A box of cells [begin, end) in `cells`, split until there are 256.
struct Box {
    size_t begin = 0, end = 0;
    uint64_t count = 0;
    int axis = 0;      // the widest channel
    int extent = 0;    // its width in cells
    uint64_t priority() const { return end - begin < 2 ? 0 : count * static_cast<uint64_t>(extent) * extent; }
};

Box make_box(const std::vector<Cell>& cells, size_t begin, size_t end) {
    Box box{begin, end};
    int lo[3] = {255, 255, 255}, hi[3] = {0, 0, 0};
    for (size_t i = begin; i < end; ++i) {
        box.count += cells[i].count;
        for (int a = 0; a < 3; ++a) {
            lo[a] = std::min(lo[a], cells[i].coord(a));
            hi[a] = std::max(hi[a], cells[i].coord(a));
        }
    }
    for (int a = 0; a < 3; ++a)
        if (hi[a] - lo[a] > box.extent) box.extent = hi[a] - lo[a], box.axis = a;
    return box;
}

// Splits the box at the pixel-weighted median of its widest channel.
std::pair<Box, Box> split(std::vector<Cell>& cells, const Box& box) {
    const auto first = cells.begin() + static_cast<std::ptrdiff_t>(box.begin);
    const auto last = cells.begin() + static_cast<std::ptrdiff_t>(box.end);
    std::sort(first, last, [axis = box.axis](const Cell& a, const Cell& b) { return a.coord(axis) < b.coord(axis); });
    uint64_t seen = 0;
    size_t cut = box.begin + 1;
    for (size_t i = box.begin; i + 1 < box.end; ++i) {
        seen += cells[i].count;
        cut = i + 1;
        if (2 * seen >= box.count) break;
    }
    return {make_box(cells, box.begin, cut), make_box(cells, cut, box.end)};
}

std::vector<Box> median_cut(std::vector<Cell>& cells) {
    std::vector<Box> boxes{make_box(cells, 0, cells.size())};
    while (boxes.size() < kMaxColours) {
        const auto widest = std::max_element(boxes.begin(), boxes.end(),
                                             [](const Box& a, const Box& b) { return a.priority() < b.priority(); });
        if (widest->priority() == 0) break;  // every box is one cell
        const auto [low, high] = split(cells, *widest);
        *widest = low;
        boxes.push_back(high);
    }
    return boxes;
}

uint8_t nearest(const std::vector<Rgb8>& palette, const Cell& cell) {
    int best = 0;
    long best_distance = -1;
    for (size_t i = 0; i < palette.size(); ++i) {
        long d = 0;
        for (int a = 0; a < 3; ++a) {
            const long diff = static_cast<long>(cell.sum[a] / cell.count) - palette[i][static_cast<size_t>(a)];
            d += diff * diff;
        }
        if (best_distance < 0 || d < best_distance) best = static_cast<int>(i), best_distance = d;
    }
    return static_cast<uint8_t>(best);
}

}  // namespace

IndexedImage quantize(const RgbaRegion& region) {
    IndexedImage out;
    if (exact_palette(region, out)) return out;
    out = IndexedImage{};
    std::vector<Cell> histogram(kCells);
    for_each_pixel(region, [&](const unsigned char* p) {
        Cell& c = histogram[static_cast<size_t>(cell_of(p))];
        ++c.count;
        for (int a = 0; a < 3; ++a) c.sum[a] += p[a];
    });
    std::vector<Cell> cells;
    for (int id = 0; id < kCells; ++id)
        if (histogram[static_cast<size_t>(id)].count > 0) {
            histogram[static_cast<size_t>(id)].id = id;
            cells.push_back(histogram[static_cast<size_t>(id)]);
        }
    for (const Box& box : median_cut(cells)) {
        uint64_t sum[3] = {0, 0, 0};
        for (size_t i = box.begin; i < box.end; ++i)
            for (int a = 0; a < 3; ++a) sum[a] += cells[i].sum[a];
        out.palette.push_back({static_cast<uint8_t>(sum[0] / box.count), static_cast<uint8_t>(sum[1] / box.count),
                               static_cast<uint8_t>(sum[2] / box.count)});
    }
    // Each occupied cell maps to the entry nearest its mean colour.
    std::vector<uint8_t> cell_index(kCells, 0);
    for (const Cell& c : cells) cell_index[static_cast<size_t>(c.id)] = nearest(out.palette, c);
    out.indices.reserve(static_cast<size_t>(region.width) * region.height);
    for_each_pixel(region, [&](const unsigned char* p) { out.indices.push_back(cell_index[static_cast<size_t>(cell_of(p))]); });
    return out;
}

}  // namespace attn::media
