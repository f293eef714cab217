#include "core/mask_spec.h"

#include <algorithm>
#include <cmath>
#include <cstdlib>
#include <limits>
#include <sstream>

namespace attn {

namespace {
std::string shape_of(std::initializer_list<int64_t> dims) { return shape_text(std::vector<int64_t>(dims)); }

std::string number_text(float v) {
    std::ostringstream s;
    s << v;
    return s.str();
}
}  // namespace

Result<MaskFill> parse_mask_fill(const std::string& text) {
    if (text == "-inf") return MaskFill{MaskFillKind::NegativeInfinity, 0};
    if (text == "-1e20") return MaskFill{MaskFillKind::Negative1e20, 0};
    if (text == "min") return MaskFill{MaskFillKind::DtypeLowest, 0};
    char* end = nullptr;
    const float v = std::strtof(text.c_str(), &end);
    if (text.empty() || end != text.c_str() + text.size() || std::isnan(v) || v == std::numeric_limits<float>::infinity())
        return Result<MaskFill>::failure(Message("error.mask.unknown_fill", {{"text", text}}));
    return MaskFill{MaskFillKind::Value, v};
}

std::string to_string(const MaskFill& fill) {
    switch (fill.kind) {
        case MaskFillKind::NegativeInfinity: return "-inf";
        case MaskFillKind::Negative1e20: return "-1e20";
        case MaskFillKind::DtypeLowest: return "min";
        case MaskFillKind::Value: return number_text(fill.value);
    }
    return "-inf";
}

float mask_fill_value(const MaskFill& fill, DType dtype) {
    switch (fill.kind) {
        case MaskFillKind::NegativeInfinity: return -std::numeric_limits<float>::infinity();
        case MaskFillKind::Negative1e20: return -1e20f;
        case MaskFillKind::DtypeLowest: return dtype_lowest(dtype);
        case MaskFillKind::Value: return fill.value;
    }
    return -std::numeric_limits<float>::infinity();
}

Result<MaskPresets> parse_mask_presets(const std::string& text) {
    MaskPresets p;
    if (text.empty() || text == "none") return p;
    std::stringstream in(text);
    std::string name;
    while (std::getline(in, name, ',')) {
        if (name == "causal") p.causal = true;
        else if (name == "padding") p.padding = true;
        else if (name == "left-padding") p.left_padding = true;
        else if (name == "window") p.window = true;
        else
            return Result<MaskPresets>::failure(Message("error.mask.unknown_preset", {{"text", name}}));
    }
    return p;
}

std::string to_string(const MaskPresets& p) {
    std::string out;
    const auto add = [&out](bool on, const char* name) {
        if (on) out += (out.empty() ? "" : ",") + std::string(name);
    };
    add(p.causal, "causal");
    add(p.padding, "padding");
    add(p.left_padding, "left-padding");
    add(p.window, "window");
    return out.empty() ? "none" : out;
}

Message accepted_mask_shapes(const MaskSizes& z) {
    return Message("error.mask.accepted_shapes",
                   {{"s", shape_of({z.S})}, {"ls", shape_of({z.L, z.S})}, {"b11s", shape_of({z.B, 1, 1, z.S})},
                    {"b1ls", shape_of({z.B, 1, z.L, z.S})}, {"bls", shape_of({z.B, z.L, z.S})},
                    {"bhls", shape_of({z.B, z.H, z.L, z.S})}});
}

Result<BoundMask> BoundMask::bind(const MaskSpec& spec, const MaskSizes& sizes, DType dtype) {
    using R = Result<BoundMask>;
    BoundMask m;
    m.spec_ = spec;
    m.sizes_ = sizes;
    m.fill_ = mask_fill_value(spec.fill, dtype);

    if (spec.presets.reads_valid_lengths()) {
        const char* which = spec.presets.padding ? "padding" : "left-padding";
        if (static_cast<int64_t>(spec.valid_lengths.size()) != sizes.B)
            return R::failure(Message("error.mask.lengths_count",
                                      {{"mask", which}, {"batch", sizes.B}, {"count", spec.valid_lengths.size()}}));
        for (size_t b = 0; b < spec.valid_lengths.size(); ++b)
            if (spec.valid_lengths[b] < 0 || spec.valid_lengths[b] > sizes.S)
                return R::failure(Message("error.mask.length_range",
                                          {{"length", spec.valid_lengths[b]}, {"item", b}, {"keys", sizes.S}}));
    }
    if (spec.presets.window && spec.window < 1)
        return R::failure(Message("error.mask.window", {{"window", spec.window}}));

    if (m.has_file()) {
        const std::vector<int64_t>& given = spec.file.shape();
        std::vector<int64_t> four;  // the file's shape as (B, H, L, S)
        if (given.size() == 3) four = {given[0], 1, given[1], given[2]};
        else if (given.size() >= 1 && given.size() <= 4) {
            four.assign(4 - given.size(), 1);
            four.insert(four.end(), given.begin(), given.end());
        }
        const int64_t target[4] = {sizes.B, sizes.H, sizes.L, sizes.S};
        bool fits = four.size() == 4;
        for (size_t d = 0; fits && d < 4; ++d) fits = four[d] == 1 || four[d] == target[d];
        if (!fits)
            return R::failure(Message("error.mask.file_shape", {{"shape", shape_text(given)},
                                                                {"target", shape_of({sizes.B, sizes.H, sizes.L, sizes.S})},
                                                                {"accepted", accepted_mask_shapes(sizes)}}));
        int64_t stride = 1;
        for (int d = 3; d >= 0; --d) {
            m.file_strides_[d] = four[static_cast<size_t>(d)] == 1 ? 0 : stride;
            stride *= four[static_cast<size_t>(d)];
        }
        m.file_values_ = spec.file.to_vector();
        for (size_t k = 0; k < m.file_values_.size(); ++k) {
            const float v = m.file_values_[k];
            if (spec.file_is_boolean ? (v != 0.0f && v != 1.0f) : (std::isnan(v) || v == std::numeric_limits<float>::infinity()))
                return R::failure(Message(spec.file_is_boolean ? "error.mask.file_not_boolean" : "error.mask.file_not_finite",
                                          {{"value", number_text(v)}, {"index", k}}));
        }
    }
    return m;
}

int64_t BoundMask::file_index(int64_t b, int64_t h, int64_t i, int64_t j) const {
    return b * file_strides_[0] + h * file_strides_[1] + i * file_strides_[2] + j * file_strides_[3];
}

BoundMask::KeyRange BoundMask::preset_visible_keys(int64_t b, int64_t i) const {
    const MaskPresets& p = spec_.presets;
    KeyRange r{0, sizes_.S};
    if (p.causal || p.window) r.last = std::min(r.last, i + 1);
    if (p.window) r.first = std::max(r.first, i - spec_.window + 1);
    if (p.padding) r.last = std::min<int64_t>(r.last, spec_.valid_lengths[static_cast<size_t>(b)]);
    if (p.left_padding) r.first = std::max<int64_t>(r.first, sizes_.S - spec_.valid_lengths[static_cast<size_t>(b)]);
    return r;
}

bool BoundMask::is_masked(int64_t b, int64_t h, int64_t i, int64_t j) const {
    const KeyRange r = preset_visible_keys(b, i);
    if (j < r.first || j >= r.last) return true;
    return has_file() && spec_.file_is_boolean && file_values_[static_cast<size_t>(file_index(b, h, i, j))] != 0.0f;
}

float BoundMask::additive(int64_t b, int64_t h, int64_t i, int64_t j) const {
    if (!has_file() || spec_.file_is_boolean) return 0.0f;
    return file_values_[static_cast<size_t>(file_index(b, h, i, j))];
}

bool BoundMask::hides_key(int64_t b, int64_t h, int64_t i, int64_t j) const {
    return is_masked(b, h, i, j) || additive(b, h, i, j) <= kFloatMaskHidesKey;
}

int BoundMask::apply(const Eigen::Ref<const Mat>& scores, int64_t b, int64_t h, Eigen::Ref<Mat> masked,
                     uint8_t* row_flags, int64_t query_offset) const {
    // A block against the first cols < S keys (a decode step) has no extra columns.
    const int64_t L = scores.rows(), cols = scores.cols(), S = std::min(sizes_.S, cols);
    const bool float_file = has_file() && !spec_.file_is_boolean;
    const bool bool_file = has_file() && spec_.file_is_boolean;
    int fully_masked = 0;
    for (int64_t row = 0; row < L; ++row) {
        const int64_t i = row + query_offset;  // the query's row in the whole (L, S) map
        const KeyRange r = preset_visible_keys(b, i);
        const int64_t first = std::min(r.first, S), last = std::max(first, std::min(r.last, S));
        // torch: the float mask is added first, then masked_fill writes the fill; columns
        // past S (bias_k, zero_attn) are copied as they are.
        masked.row(row) = scores.row(row);
        if (float_file) {
            const float* addend = file_values_.data() + file_index(b, h, i, 0);
            for (int64_t j = 0; j < S; ++j) masked(row, j) += addend[j * file_strides_[3]];
        }
        masked.row(row).head(first).setConstant(fill_);
        masked.row(row).segment(last, S - last).setConstant(fill_);
        bool every_key_hidden = cols == S;
        for (int64_t j = first; j < last && (bool_file || (float_file && every_key_hidden)); ++j) {
            const float v = file_values_[static_cast<size_t>(file_index(b, h, i, j))];
            if (bool_file && v != 0.0f) masked(row, j) = fill_;
            every_key_hidden = every_key_hidden && (bool_file ? v != 0.0f : v <= kFloatMaskHidesKey);
        }
        if (!has_file()) every_key_hidden = every_key_hidden && first == last;
        if (row_flags != nullptr) row_flags[row] = every_key_hidden ? 1 : 0;
        fully_masked += every_key_hidden ? 1 : 0;
    }
    return fully_masked;
}

}  // namespace attn
