// Masks as data: which key columns each query may not see, and what the scores get there.
//
// Sources, combined (a key is masked when any boolean source masks it):
//   presets   causal       key j > query i
//             padding      j >= valid_lengths[b]          (right padding; 0 allowed)
//             left-padding j <  S - valid_lengths[b]      (Hugging Face's left padding)
//             window N     j > i or j <= i - N            (the N latest keys, causal)
//   a file    boolean (True = masked out, nn.MultiheadAttention's convention) or float
//             (added to the scores, as torch's float attn_mask and Hugging Face's 4-D
//             masks), of a shape that broadcasts to (B, H, L, S) under PyTorch's rules:
//             (S), (L, S), (B, 1, 1, S), (B, 1, L, S), (B, H, L, S), and (B, L, S), which
//             is read as (B, 1, L, S) (plain broadcasting would align B with H).
// Applied as torch does (tests/fixtures/torch_options/README.md): masked = scores + float_mask,
// then masked_fill(boolean, fill). Key columns past S (nn.MultiheadAttention's bias_k
// and zero_attn columns) are never masked. The fill is -inf, -1e20, torch.finfo(compute
// dtype).min, or any value. A query row with no key left is "fully masked": torch gives
// NaN weights there with -inf and uniform weights 1/S with a finite fill; the project's
// softmax (core/softmax.h) gives -inf rows zeros, and this file flags the row.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/dims.h"
#include "core/dtype_round.h"
#include "core/result.h"
#include "core/tensor.h"

namespace attn {

// The `--mask-fill` choices: -inf, -1e20, min (the compute dtype's lowest), or a number.
enum class MaskFillKind { NegativeInfinity, Negative1e20, DtypeLowest, Value };
struct MaskFill {
    MaskFillKind kind = MaskFillKind::NegativeInfinity;
    float value = 0;  // only for Value
};
Result<MaskFill> parse_mask_fill(const std::string& text);  // "-inf", "-1e20", "min", "-1e9", ...
std::string to_string(const MaskFill& fill);                // the `--mask-fill` text
// The number written into masked cells when computing in `dtype`.
float mask_fill_value(const MaskFill& fill, DType dtype);

// The `--mask` presets; any subset combines.
struct MaskPresets {
    bool causal = false;
    bool padding = false;
    bool left_padding = false;
    bool window = false;
    bool any() const { return causal || padding || left_padding || window; }
    bool reads_valid_lengths() const { return padding || left_padding; }
};
// "none", "causal", "causal,left-padding", ... (order and repeats do not matter).
Result<MaskPresets> parse_mask_presets(const std::string& text);
std::string to_string(const MaskPresets& presets);  // "none" or a comma list

// Everything the user chose about masking.
struct MaskSpec {
    MaskPresets presets;
    std::vector<int> valid_lengths;  // one per batch item, 0..S (padding, left-padding)
    int window = 0;                  // keys seen by the window preset, >= 1
    Tensor file;                     // the --mask-file as read (rank 1..4); empty when none
    bool file_is_boolean = false;    // file holds 0/1 (True = masked out) rather than additive floats
    MaskFill fill;
};

// The sizes a mask is bound to. S counts real keys only (no bias_k/zero_attn columns).
struct MaskSizes {
    int64_t B = 1, H = 1, L = 1, S = 1;
};

// A float-mask entry at or below this hides its key for the "fully masked" flag (it is
// -inf or a finfo.min-like number such as Hugging Face writes); the scores still get it added.
inline constexpr float kFloatMaskHidesKey = -1e19f;

// A MaskSpec checked against sizes and ready to apply to one (b, h) block at a time.
class BoundMask {
public:
    // Checks presets, valid lengths, window and the file's shape and values against
    // `sizes`; the message says what was given and what is accepted.
    static Result<BoundMask> bind(const MaskSpec& spec, const MaskSizes& sizes, DType dtype = DType::Float32);

    // True when any source exists (an attn_masked step is recorded).
    bool any() const { return spec_.presets.any() || has_file(); }
    float fill() const { return fill_; }
    const MaskSizes& sizes() const { return sizes_; }
    // The keys the presets leave visible to query i of item b: [first, last) (empty when
    // first >= last). Every preset hides a prefix or a suffix of the keys, so together they
    // leave one interval; the boolean file may hide more inside it.
    struct KeyRange {
        int64_t first = 0, last = 0;
    };
    KeyRange preset_visible_keys(int64_t b, int64_t i) const;
    // True when a boolean source masks key j for query i of item b, head h (j < S).
    bool is_masked(int64_t b, int64_t h, int64_t i, int64_t j) const;
    // The float mask's addend for that cell (0 without a float file).
    float additive(int64_t b, int64_t h, int64_t i, int64_t j) const;
    // True when that cell leaves the key hidden: boolean-masked, or a float addend <= kFloatMaskHidesKey.
    bool hides_key(int64_t b, int64_t h, int64_t i, int64_t j) const;

    // scores: (L, S + extra) of item b, head h -> masked, same shape (may be the same
    // buffer): the float addend added, then boolean cells set to fill(); the `extra`
    // trailing columns copied unchanged. row_flags (L entries, may be null) gets 1 for each
    // fully masked row (every column hidden; never with extra columns), 0 otherwise.
    // Returns the number of fully masked rows. With a lower compute dtype, round
    // `masked` afterwards (rounding commutes with the fill, which is representable).
    //
    // A block of query rows (a decode step, a chunk of a prefill): scores (n, S_t) hold the
    // queries at positions query_offset .. query_offset + n - 1 against the first S_t <= S
    // keys, so row r is masked as query row query_offset + r of the whole (L, S) map
    // (causal and window aligned to the lower right when query_offset = S_t - n).
    int apply(const Eigen::Ref<const Mat>& scores, int64_t b, int64_t h, Eigen::Ref<Mat> masked,
              uint8_t* row_flags = nullptr, int64_t query_offset = 0) const;

private:
    bool has_file() const { return !spec_.file.empty(); }
    int64_t file_index(int64_t b, int64_t h, int64_t i, int64_t j) const;

    MaskSpec spec_;
    MaskSizes sizes_;
    float fill_ = 0;
    int64_t file_strides_[4] = {0, 0, 0, 0};  // per (B, H, L, S); 0 where the file broadcasts
    std::vector<float> file_values_;          // the file in C order
};

// "(S) = (5), (L, S) = (3, 5), ...": the accepted mask-file shapes for these sizes.
Message accepted_mask_shapes(const MaskSizes& sizes);

}  // namespace attn
