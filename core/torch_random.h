// PyTorch's CPU random number generator, replayed bit for bit.
//
// `torch.manual_seed(N)` followed by torch's CPU sampling ops gives numbers that a
// learner sees printed in an article; the functions here give the same numbers, so
// AttnViz can start from the very weights and inputs the article starts from.
// What they reproduce (torch 1.13 on an x86-64 CPU with AVX2, Debian's python3-torch;
// the draw order has been stable across torch 1.x and 2.x releases):
//
//   * The generator is a 32-bit Mersenne Twister (std::mt19937) seeded with the low
//     32 bits of the seed. `random()` is one output word; `random64()` is two words,
//     the first one the high half.
//   * Float sampling takes one word per element and keeps its low 24 bits; double
//     sampling (bernoulli, the plain normal path) takes `random64()` and keeps 53 bits.
//   * Every op draws for its elements in C order (the order NumPy prints), one after
//     another, and the generator keeps going from where the previous op stopped.
//
// All tensors here are contiguous float32 in C order; `numel` counts their elements.
#pragma once

#include <cstdint>
#include <optional>
#include <random>
#include <vector>

#include "core/dims.h"

namespace attn {

// torch.Generator on the CPU: its Mersenne Twister plus the cached second normal of
// the double Box-Muller path (`torch.manual_seed` clears that cache as well).
class TorchGenerator {
public:
    // torch's default seed when nobody called manual_seed (67280421310721).
    static constexpr uint64_t kDefaultSeed = 67280421310721ull;

    explicit TorchGenerator(uint64_t seed = kDefaultSeed) { manual_seed(seed); }

    // torch.manual_seed(seed): only the low 32 bits reach the Mersenne Twister.
    void manual_seed(uint64_t seed);
    // The seed last given (all 64 bits, as torch.initial_seed() reports it).
    uint64_t initial_seed() const { return seed_; }

    // One 32-bit output word (CPUGeneratorImpl::random).
    uint32_t random() { return static_cast<uint32_t>(engine_()); }
    // Two words combined, the first drawn is the high half (CPUGeneratorImpl::random64).
    uint64_t random64();

    // The sine half of the last double Box-Muller pair, kept for the next normal draw.
    std::optional<double>& cached_double_normal() { return cached_double_normal_; }

private:
    uint64_t seed_ = kDefaultSeed;
    std::mt19937 engine_;
    std::optional<double> cached_double_normal_;
};

// One float32 sample of `uniform_(from, to)`: the low 24 bits of one word times 2^-24
// (exact in float), then x * (to - from) + from rounded once (torch's AVX2 kernel
// fuses it; computing it in double and rounding to float agrees except in rare
// double-rounding ties). `from` and `to` are floats already: torch casts them to the
// tensor's dtype before sampling.
float torch_uniform_float(TorchGenerator& gen, float from, float to);
// One double sample in [0, 1) from 53 bits of `random64()` (torch's double path).
double torch_uniform_double(TorchGenerator& gen);

// tensor.uniform_(from, to) on a float32 tensor of `numel` elements: values in C order.
std::vector<float> torch_uniform(TorchGenerator& gen, int64_t numel, double from, double to);
// torch.rand(rows, cols): a (rows, cols) matrix of uniform_(0, 1) samples.
Mat torch_rand(TorchGenerator& gen, int64_t rows, int64_t cols);

// tensor.normal_(mean, std) on a contiguous float32 tensor of `numel` elements.
// torch picks one of two paths by size, and they consume the generator differently:
//   numel >= 16: the vectorised path (see torch_normal_vectorised).
//   numel <  16: the scalar path (see torch_normal_scalar).
std::vector<float> torch_normal(TorchGenerator& gen, int64_t numel, double mean, double std);
// torch.randn(rows, cols): normal_(0, 1) on a (rows, cols) matrix.
Mat torch_randn(TorchGenerator& gen, int64_t rows, int64_t cols);

// The vectorised path (numel >= 16 required): first one float uniform per element;
// then each whole block of 16 becomes 16 normals by Box-Muller, element j and j + 8
// sharing the pair (u1 = 1 - x[j], u2 = x[j + 8]) and getting radius * cos and
// radius * sin; when numel is not a multiple of 16 the LAST 16 elements are drawn
// again (16 more words) and transformed as one more block, overwriting the tail of
// the previous block. So numel = 17 consumes 33 words. The log, sine and cosine are
// the single-precision polynomial approximations torch's AVX2 kernel uses
// (core/torch_vector_math.h), and the final `n * std + mean` is a fused multiply-add.
std::vector<float> torch_normal_vectorised(TorchGenerator& gen, int64_t numel, float mean, float std);
// The scalar path: per element one double normal by Box-Muller from two double
// uniforms (u1 for the angle, u2 for the radius: r = sqrt(-2 log(1 - u2))), whose
// sine half is cached in the generator and used for the next element, then
// `value * std + mean` in double and rounded to float. A cached half survives into
// the next normal_ call of the scalar path.
std::vector<float> torch_normal_scalar(TorchGenerator& gen, int64_t numel, double mean, double std);

}  // namespace attn
