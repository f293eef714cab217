#include "core/torch_random.h"

#include <cassert>
#include <cmath>

#include "core/torch_vector_math.h"

namespace attn {

namespace {

constexpr double kPi = 3.14159265358979323846;

// Box-Muller over one block of 16 uniforms, in place: element j and j + 8 share a
// pair. Every step rounds to float as torch's 8-wide AVX2 code does, and the last
// step is that code's fused multiply-add.
void box_muller_block16(float* block, float mean, float std) {
    const float two_pi = static_cast<float>(2.0f * kPi);
    for (int j = 0; j < 8; ++j) {
        const float u1 = 1.0f - block[j];  // (0, 1]: the log never sees 0
        const float u2 = block[j + 8];
        const float radius = std::sqrt(-2.0f * torch_avx_log(u1));
        const float theta = two_pi * u2;
        float sine, cosine;
        torch_avx_sincos(theta, &sine, &cosine);
        block[j] = std::fma(radius * cosine, std, mean);
        block[j + 8] = std::fma(radius * sine, std, mean);
    }
}

// One standard normal of torch's double path, using and refilling the generator's cache.
double standard_normal_double(TorchGenerator& gen) {
    std::optional<double>& cached = gen.cached_double_normal();
    if (cached) {
        const double value = *cached;
        cached.reset();
        return value;
    }
    const double u1 = torch_uniform_double(gen);  // the angle
    const double u2 = torch_uniform_double(gen);  // the radius
    const double radius = std::sqrt(-2.0 * std::log(1.0 - u2));
    const double theta = 2.0 * kPi * u1;
    cached = radius * std::sin(theta);
    return radius * std::cos(theta);
}

}  // namespace

void TorchGenerator::manual_seed(uint64_t seed) {
    seed_ = seed;
    engine_.seed(static_cast<std::mt19937::result_type>(seed & 0xffffffffu));
    cached_double_normal_.reset();
}

uint64_t TorchGenerator::random64() {
    const uint64_t high = random();
    const uint64_t low = random();
    return (high << 32) | low;
}

float torch_uniform_float(TorchGenerator& gen, float from, float to) {
    // 24 bits fit a float exactly, so x is exact; torch's AVX2 kernel then rounds
    // x * (to - from) + from once, as one fused multiply-add in float.
    const float x = static_cast<float>(gen.random() & 0xffffffu) * (1.0f / 16777216.0f);
    const float width = to - from;
    return std::fma(x, width, from);
}

double torch_uniform_double(TorchGenerator& gen) {
    return static_cast<double>(gen.random64() & ((uint64_t{1} << 53) - 1)) * (1.0 / 9007199254740992.0);
}

std::vector<float> torch_uniform(TorchGenerator& gen, int64_t numel, double from, double to) {
    assert(numel >= 0 && "torch_uniform: negative element count");
    const float from_f = static_cast<float>(from), to_f = static_cast<float>(to);
    std::vector<float> values(static_cast<size_t>(numel));
    for (float& v : values) v = torch_uniform_float(gen, from_f, to_f);
    return values;
}

Mat torch_rand(TorchGenerator& gen, int64_t rows, int64_t cols) {
    const std::vector<float> values = torch_uniform(gen, rows * cols, 0.0, 1.0);
    return ConstMatMap(values.data(), rows, cols);
}

std::vector<float> torch_normal(TorchGenerator& gen, int64_t numel, double mean, double std) {
    if (numel >= 16) return torch_normal_vectorised(gen, numel, static_cast<float>(mean), static_cast<float>(std));
    return torch_normal_scalar(gen, numel, mean, std);
}

Mat torch_randn(TorchGenerator& gen, int64_t rows, int64_t cols) {
    const std::vector<float> values = torch_normal(gen, rows * cols, 0.0, 1.0);
    return ConstMatMap(values.data(), rows, cols);
}

std::vector<float> torch_normal_vectorised(TorchGenerator& gen, int64_t numel, float mean, float std) {
    assert(numel >= 16 && "the vectorised normal path needs 16 or more elements");
    std::vector<float> values(static_cast<size_t>(numel));
    for (float& v : values) v = torch_uniform_float(gen, 0.0f, 1.0f);
    for (int64_t start = 0; start + 16 <= numel; start += 16) box_muller_block16(values.data() + start, mean, std);
    if (numel % 16 != 0) {
        float* tail = values.data() + (numel - 16);
        for (int i = 0; i < 16; ++i) tail[i] = torch_uniform_float(gen, 0.0f, 1.0f);
        box_muller_block16(tail, mean, std);
    }
    return values;
}

std::vector<float> torch_normal_scalar(TorchGenerator& gen, int64_t numel, double mean, double std) {
    assert(numel >= 0 && "torch_normal_scalar: negative element count");
    std::vector<float> values(static_cast<size_t>(numel));
    // torch's AVX2 build fuses `value * std + mean`; with mean 0 (randn, xavier_normal_)
    // fused and unfused agree, and otherwise they differ below float's resolution.
    for (float& v : values) v = static_cast<float>(std::fma(standard_normal_double(gen), std, mean));
    return values;
}

}  // namespace attn
