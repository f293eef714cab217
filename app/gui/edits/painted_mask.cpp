#include "app/gui/edits/painted_mask.h"

#include <algorithm>
#include <optional>
#include <string>

#include "core/bind_mask.h"
#include "core/recipe.h"

namespace attn::gui {

bool PaintedMask::any() const { return std::any_of(cells.begin(), cells.end(), [](uint8_t c) { return c != 0; }); }

int PaintedMask::count() const { return static_cast<int>(std::count(cells.begin(), cells.end(), uint8_t{1})); }

bool PaintedMask::at(int i, int j) const {
    if (i < 0 || j < 0 || i >= rows || j >= cols) return false;
    return cells[static_cast<size_t>(i) * static_cast<size_t>(cols) + static_cast<size_t>(j)] != 0;
}

PaintedMask fitted(const PaintedMask& mask, int L, int S) {
    if (mask.rows == L && mask.cols == S) return mask;
    PaintedMask out;
    out.rows = std::max(0, L);
    out.cols = std::max(0, S);
    out.cells.assign(static_cast<size_t>(out.rows) * static_cast<size_t>(out.cols), 0);
    for (int i = 0; i < std::min(L, mask.rows); ++i)
        for (int j = 0; j < std::min(S, mask.cols); ++j)
            out.cells[static_cast<size_t>(i) * static_cast<size_t>(S) + static_cast<size_t>(j)] = mask.at(i, j) ? 1 : 0;
    return out;
}

bool paint(PaintedMask& mask, int L, int S, int row, int col, PaintReach reach) {
    if (L <= 0 || S <= 0 || row < 0 || row >= L || col < 0 || col >= S) return false;
    mask = fitted(mask, L, S);
    const auto cell = [&](int i, int j) -> uint8_t& {
        return mask.cells[static_cast<size_t>(i) * static_cast<size_t>(S) + static_cast<size_t>(j)];
    };
    switch (reach) {
        case PaintReach::Cell: cell(row, col) = cell(row, col) ? 0 : 1; return true;
        case PaintReach::Row: {
            bool all = true;
            for (int j = 0; j < S; ++j) all = all && cell(row, j);
            for (int j = 0; j < S; ++j) cell(row, j) = all ? 0 : 1;
            return true;
        }
        case PaintReach::Column: {
            bool all = true;
            for (int i = 0; i < L; ++i) all = all && cell(i, col);
            for (int i = 0; i < L; ++i) cell(i, col) = all ? 0 : 1;
            return true;
        }
    }
    return false;
}

Message painted_mask_label() { return Message("mask.source.painted"); }

Message file_and_painted_label(const std::string& file_path) {
    return Message("mask.source.file_and_painted", {{"file", file_path.empty() ? Message("mask.source.file") : Message::plain(file_path)}});
}

namespace {

// The file's part of a manifest label file_and_painted_label wrote ("pad.npy" of
// "pad.npy + painted in the window"); nullopt for any other label.
std::optional<std::string> file_under_paint(const std::string& path) {
    const std::string painted_suffix = english(file_and_painted_label("|"));
    const size_t bar = painted_suffix.find('|');
    const std::string before = painted_suffix.substr(0, bar), after = painted_suffix.substr(bar + 1);
    if (path.size() > before.size() + after.size() && path.compare(0, before.size(), before) == 0 &&
        path.compare(path.size() - after.size(), after.size(), after) == 0)
        return path.substr(before.size(), path.size() - before.size() - after.size());
    return std::nullopt;
}

}  // namespace

Message mask_file_label(const AttentionConfig& config) {
    const std::string& path = config.mask_file_path;
    if (const Recipe* recipe = find_recipe(config.recipe); recipe && path == english(recipe_mask_label(*recipe)))
        return recipe_mask_label(*recipe);
    if (path == english(painted_mask_label())) return painted_mask_label();
    if (const std::optional<std::string> file = file_under_paint(path))
        return *file == english(Message("mask.source.file")) ? file_and_painted_label("") : file_and_painted_label(*file);
    return Message::plain(path);
}

bool has_painted_part(const AttentionConfig& config) {
    return !config.mask_file.empty() &&
           (config.mask_file_path == english(painted_mask_label()) || file_under_paint(config.mask_file_path).has_value());
}

MaskedBy masked_by(const MaskOrigins& origins, const AttentionConfig& trace_config, int64_t b, int64_t h, int64_t i, int64_t j) {
    MaskedBy by;
    if (!origins.config || !origins.painted || !has_painted_part(trace_config)) return by;
    by.painted = origins.painted->at(static_cast<int>(i), static_cast<int>(j));
    const AttentionConfig& session = *origins.config;
    if (session.mask_file.empty() || !session.mask_file_is_boolean) return by;
    // The file alone, bound to the trace's sizes as the forward binds it.
    AttentionConfig file_only = trace_config;
    file_only.mask_file = session.mask_file;
    file_only.mask_file_is_boolean = true;
    const Result<BoundMask> bound = bind_mask(file_only, MaskSources::FileOnly);
    by.file = bound.ok() && bound->is_masked(b, h, i, j);
    return by;
}

Message painting_blocked(const AttentionConfig& config) {
    if (!config.mask_file.empty() && !config.mask_file_is_boolean)
        return Message("canvas.paint.blocked_float", {{"path", mask_file_label(config)}});
    return {};
}

void merge_painted_mask(AttentionConfig& config, const PaintedMask& painted) {
    if (!painted.any() || !painting_blocked(config).empty()) return;
    const int L = config.L(), S = config.S();
    const PaintedMask cells = fitted(painted, L, S);
    if (!cells.any()) return;
    if (config.mask_file.empty()) {
        std::vector<float> values(cells.cells.begin(), cells.cells.end());
        config.mask_file = Tensor::from_values({L, S}, {"L", "S"}, values);
        config.mask_file_is_boolean = true;
        config.mask_file_path = english(painted_mask_label());
        return;
    }
    // A boolean file of any accepted shape, read as (B_f, H_f, L_f, S_f) the way the core
    // reads it ((B, L, S) is (B, 1, L, S)); L_f and S_f are L or S, or 1 (broadcast).
    const Tensor& file = config.mask_file;
    const std::vector<int64_t>& given = file.shape();
    std::vector<int64_t> four;
    if (given.size() == 3) four = {given[0], 1, given[1], given[2]};
    else if (!given.empty() && given.size() <= 4) {
        four.assign(4 - given.size(), 1);
        four.insert(four.end(), given.begin(), given.end());
    }
    if (four.size() != 4 || (four[2] != 1 && four[2] != L) || (four[3] != 1 && four[3] != S)) return;  // validate() reports it
    const std::vector<float> old = file.to_vector();
    const int64_t Bf = four[0], Hf = four[1];
    std::vector<float> merged(static_cast<size_t>(Bf * Hf * L * S));
    for (int64_t b = 0; b < Bf; ++b)
        for (int64_t h = 0; h < Hf; ++h)
            for (int64_t i = 0; i < L; ++i)
                for (int64_t j = 0; j < S; ++j) {
                    const int64_t from = ((b * Hf + h) * four[2] + (four[2] == 1 ? 0 : i)) * four[3] + (four[3] == 1 ? 0 : j);
                    const bool masked = old[static_cast<size_t>(from)] != 0.0f || cells.at(static_cast<int>(i), static_cast<int>(j));
                    merged[static_cast<size_t>(((b * Hf + h) * L + i) * S + j)] = masked ? 1.0f : 0.0f;
                }
    config.mask_file = Bf == 1 && Hf == 1 ? Tensor::from_values({L, S}, {"L", "S"}, merged)
                                          : Tensor::from_values({Bf, Hf, L, S}, {"B", "H", "L", "S"}, merged);
    config.mask_file_path = english(file_and_painted_label(config.mask_file_path));
}

}  // namespace attn::gui
