#include "core/dtype_round.h"

#include <limits>

#include "core/float_bits.h"

namespace attn {

const char* to_string(DType dtype) {
    switch (dtype) {
        case DType::Float32: return "float32";
        case DType::BFloat16: return "bfloat16";
        case DType::Float16: return "float16";
    }
    return "float32";
}

Result<DType> parse_dtype(const std::string& text) {
    for (DType d : {DType::Float32, DType::BFloat16, DType::Float16})
        if (text == to_string(d)) return d;
    return Result<DType>::failure(Message("error.config.unknown_dtype", {{"text", text}}));
}

uint16_t bfloat16_bits_from_float(float value) {
    const uint32_t bits = bits_of(value);
    // Adding 0x7FFF plus the lowest kept bit rounds half to even in one integer add;
    // a carry out of the mantissa moves into the exponent, which is what overflow to
    // inf needs too. NaN is the one input the add could turn into inf.
    const uint32_t rounded = (bits + 0x7FFFu + ((bits >> 16) & 1u)) >> 16;
    return value != value ? uint16_t{0x7FC0} : static_cast<uint16_t>(rounded);
}

float float_from_bfloat16_bits(uint16_t bits) { return float_of(uint32_t{bits} << 16); }

uint16_t float16_bits_from_float(float value) {
    uint32_t magnitude = bits_of(value);
    const uint32_t sign = (magnitude >> 16) & 0x8000u;
    magnitude &= 0x7FFFFFFFu;
    // All three paths are computed and one is selected, so a loop over a buffer has no
    // branches and vectorises. Normal range: rebias the exponent (127 -> 15) and round
    // the 13 dropped bits to even (the add wraps for huge inputs, which are not selected).
    const uint32_t normal = (magnitude + 0xC8000FFFu + ((magnitude >> 13) & 1u)) >> 13;
    // Below 2^-14 the result is subnormal: adding 0.5f lines the value up so the FPU's
    // own round-to-nearest-even drops exactly the bits float16 cannot keep.
    const uint32_t subnormal = bits_of(float_of(magnitude) + 0.5f) - 0x3F000000u;
    uint32_t result = magnitude < 0x38800000u ? subnormal : normal;
    result = magnitude >= 0x477FF000u ? 0x7C00u : result;  // >= 65520 rounds to inf
    result = magnitude > 0x7F800000u ? 0x7E00u : result;   // NaN stays a (quiet) NaN
    return static_cast<uint16_t>(sign | result);
}

float float_from_float16_bits(uint16_t bits) {
    const uint32_t sign = uint32_t{bits & 0x8000u} << 16;
    const uint32_t exponent = (bits >> 10) & 0x1Fu;
    const uint32_t mantissa = bits & 0x3FFu;
    // Selected without branches, like the encoder. Zero and subnormals are
    // mantissa * 2^-24, exact in float32; exponent 31 is inf or NaN.
    const uint32_t subnormal = bits_of(static_cast<float>(static_cast<int32_t>(mantissa)) * (1.0f / 16777216.0f));
    const uint32_t normal = ((exponent + 112u) << 23) | (mantissa << 13);
    const uint32_t special = 0x7F800000u | (mantissa << 13);
    uint32_t magnitude = exponent == 31 ? special : normal;
    magnitude = exponent == 0 ? subnormal : magnitude;
    return float_of(sign | magnitude);
}

float round_to_dtype(DType dtype, float value) {
    switch (dtype) {
        case DType::Float32: return value;
        case DType::BFloat16: return float_from_bfloat16_bits(bfloat16_bits_from_float(value));
        case DType::Float16: return float_from_float16_bits(float16_bits_from_float(value));
    }
    return value;
}

void round_to_dtype_in_place(DType dtype, float* values, int64_t count) {
    switch (dtype) {
        case DType::Float32: return;
        case DType::BFloat16:
            for (int64_t i = 0; i < count; ++i) values[i] = float_from_bfloat16_bits(bfloat16_bits_from_float(values[i]));
            return;
        case DType::Float16:
            for (int64_t i = 0; i < count; ++i) values[i] = float_from_float16_bits(float16_bits_from_float(values[i]));
            return;
    }
}

float dtype_lowest(DType dtype) {
    switch (dtype) {
        case DType::Float32: return std::numeric_limits<float>::lowest();
        case DType::BFloat16: return float_from_bfloat16_bits(0xFF7Fu);  // -3.38953139e38
        case DType::Float16: return -65504.0f;
    }
    return std::numeric_limits<float>::lowest();
}

}  // namespace attn
