#include "core/torch_vector_math.h"

#include <cstdint>
#include <cmath>
#include <limits>

#include "core/float_bits.h"

namespace attn {

namespace {

// The coefficients are written as the vector code writes them (double literals that
// the compiler rounds to float), so each one rounds to the same float.
constexpr float kSqrtHalf = static_cast<float>(0.707106781186547524);
constexpr float kLogPoly[9] = {
    static_cast<float>(7.0376836292E-2),  static_cast<float>(-1.1514610310E-1),
    static_cast<float>(1.1676998740E-1),  static_cast<float>(-1.2420140846E-1),
    static_cast<float>(1.4249322787E-1),  static_cast<float>(-1.6668057665E-1),
    static_cast<float>(2.0000714765E-1),  static_cast<float>(-2.4999993993E-1),
    static_cast<float>(3.3333331174E-1)};
// ln 2 split in a short head and a small tail, so e * ln 2 adds without rounding loss.
constexpr float kLn2Tail = static_cast<float>(-2.12194440e-4);
constexpr float kLn2Head = static_cast<float>(0.693359375);

constexpr float kFourOverPi = static_cast<float>(1.27323954473516);
// pi / 4 in three pieces for the argument reduction x - j * pi / 4.
constexpr float kQuarterPi1 = static_cast<float>(0.78515625);
constexpr float kQuarterPi2 = static_cast<float>(2.4187564849853515625e-4);
constexpr float kQuarterPi3 = static_cast<float>(3.77489497744594108e-8);
constexpr float kSinPoly[3] = {static_cast<float>(-1.9515295891E-4), static_cast<float>(8.3321608736E-3),
                               static_cast<float>(-1.6666654611E-1)};
constexpr float kCosPoly[3] = {static_cast<float>(2.443315711809948E-005),
                               static_cast<float>(-1.388731625493765E-003),
                               static_cast<float>(4.166664568298827E-002)};

}  // namespace

float torch_avx_log(float x) {
    if (!(x > 0.0f)) return std::numeric_limits<float>::quiet_NaN();
    if (x < std::numeric_limits<float>::min()) x = std::numeric_limits<float>::min();

    // x = m * 2^k with m in [0.5, 1): k from the exponent field, m by forcing the
    // exponent field to that of 0.5.
    const uint32_t b = bits_of(x);
    const int32_t biased_exponent = static_cast<int32_t>(b >> 23);
    float m = float_of((b & ~0x7f800000u) | bits_of(0.5f));
    float e = static_cast<float>(biased_exponent - 0x7f) + 1.0f;

    // Move m into [sqrt(1/2), sqrt(2)) - 1 so the series converges fast.
    if (m < kSqrtHalf) {
        e -= 1.0f;
        m = (m - 1.0f) + m;
    } else {
        m = m - 1.0f;
    }

    const float z = m * m;
    float y = kLogPoly[0];
    for (int i = 1; i < 9; ++i) y = std::fma(y, m, kLogPoly[i]);
    y = std::fma(y * m, z, e * kLn2Tail);
    y = std::fma(-z, 0.5f, y);
    const float result = std::fma(e, kLn2Head, m + y);
    return result;
}

void torch_avx_sincos(float x, float* sine, float* cosine) {
    const bool negative = std::signbit(x);
    x = std::fabs(x);

    // Octant j (even, rounded up from x * 4 / pi) and the reduced argument in [-pi/4, pi/4].
    int32_t j = static_cast<int32_t>(x * kFourOverPi);  // truncation, like cvttps
    j = (j + 1) & ~1;
    const float jf = static_cast<float>(j);
    x = std::fma(jf, -kQuarterPi1, x);
    x = std::fma(jf, -kQuarterPi2, x);
    x = std::fma(jf, -kQuarterPi3, x);

    const bool flip_sine = (j & 4) != 0;
    const bool flip_cosine = ((j - 2) & 4) == 0;
    // In octants 0 and 4 (j & 2 == 0) the sine is the sine polynomial of x, otherwise
    // the roles of the two polynomials swap.
    const bool sine_from_sine_poly = (j & 2) == 0;

    const float z = x * x;
    float cos_poly = std::fma(std::fma(kCosPoly[0], z, kCosPoly[1]), z, kCosPoly[2]);
    cos_poly = std::fma(z * cos_poly, z, -(z * 0.5f));
    cos_poly = cos_poly + 1.0f;

    float sin_poly = std::fma(std::fma(kSinPoly[0], z, kSinPoly[1]), z, kSinPoly[2]);
    sin_poly = std::fma(sin_poly * z, x, x);

    // The vector code selects by masking and then adds a zero (x + 0 turns -0 into +0).
    float s = sine_from_sine_poly ? sin_poly + 0.0f : 0.0f + cos_poly;
    float c = sine_from_sine_poly ? cos_poly + 0.0f : sin_poly + 0.0f;
    if (negative != flip_sine) s = -s;
    if (flip_cosine) c = -c;
    *sine = s;
    *cosine = c;
}

}  // namespace attn
