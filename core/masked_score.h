// Which cells of the masked scores hide their key, whatever the fill the mask writes:
// -inf, -1e20 (the from-scratch articles), finfo.min (Hugging Face) or a chosen number.
// The picture hatches them, the texts quote the fill, "how peaked" skips them.
#pragma once

#include "core/dtype_round.h"
#include "core/mask_spec.h"

namespace attn {

// The fill as the masked scores hold it: mask_fill_value rounded to `dtype` (-1e20 in
// bfloat16 is -9.98e19).
inline float masked_score_fill(const MaskFill& fill, DType dtype) { return round_to_dtype(dtype, mask_fill_value(fill, dtype)); }

// True when `score`, a cell of the masked scores, hides its key: -inf, the fill itself
// (`fill`, from masked_score_fill), or a float mask's addend at or below
// kFloatMaskHidesKey (-inf is below it too).
inline bool is_masked_score(float score, float fill) { return score == fill || score <= kFloatMaskHidesKey; }

}  // namespace attn
