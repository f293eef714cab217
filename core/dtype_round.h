// Rounding float32 values to bfloat16 or float16 and back, bit for bit as PyTorch's
// `.to(torch.bfloat16)` / `.to(torch.float16)` followed by `.float()` does.
//
// AttnViz computes in float32; `--dtype` emulates a lower precision by rounding every
// op's result through the low format ("round after every op boundary"). Both formats
// round to nearest, ties to even:
//   bfloat16: 1 sign, 8 exponent, 7 mantissa bits (float32's range, fewer digits).
//             NaN becomes 0x7FC0 (sign dropped, as c10::BFloat16 does).
//   float16:  1 sign, 5 exponent, 10 mantissa bits; |x| >= 65520 becomes +-inf,
//             |x| < 2^-14 becomes a subnormal (or +-0); NaN becomes sign | 0x7E00.
#pragma once

#include <cstdint>
#include <string>

#include "core/result.h"

namespace attn {

enum class DType { Float32, BFloat16, Float16 };

// "float32" / "bfloat16" / "float16" (the `--dtype` names).
const char* to_string(DType dtype);
// Parses a `--dtype` value; the message lists the accepted names.
Result<DType> parse_dtype(const std::string& text);

// float32 -> bfloat16 bits, round to nearest even.
uint16_t bfloat16_bits_from_float(float value);
// bfloat16 bits -> float32 (exact: the upper half of a float32).
float float_from_bfloat16_bits(uint16_t bits);
// float32 -> IEEE binary16 bits, round to nearest even, with overflow to inf and subnormals.
uint16_t float16_bits_from_float(float value);
// IEEE binary16 bits -> float32 (exact).
float float_from_float16_bits(uint16_t bits);

// `value` rounded to `dtype` and widened back to float32 (identity for Float32).
float round_to_dtype(DType dtype, float value);
// The same over a buffer, in place; both loops are branch-free and vectorise.
void round_to_dtype_in_place(DType dtype, float* values, int64_t count);

// torch.finfo(dtype).min: the most negative finite value (Hugging Face's mask fill).
float dtype_lowest(DType dtype);

}  // namespace attn
