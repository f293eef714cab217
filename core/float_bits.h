// The 32 bits of a float and back, for code that reproduces rounding bit by bit
// (bfloat16/float16 conversion, torch's vectorised maths).
#pragma once

#include <cstdint>
#include <cstring>

namespace attn {

inline uint32_t bits_of(float value) {
    uint32_t bits;
    std::memcpy(&bits, &value, sizeof bits);
    return bits;
}

inline float float_of(uint32_t bits) {
    float value;
    std::memcpy(&value, &bits, sizeof value);
    return value;
}

}  // namespace attn
