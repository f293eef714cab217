// A small deterministic random generator (SplitMix64).
//
// std::uniform_real_distribution may differ between standard libraries, and the
// same seed must give the same numbers on every machine, so the mapping from bits
// to floats is written out here.
#pragma once

#include <cstdint>
#include <string>

namespace attn {

class Rng {
public:
    explicit Rng(uint64_t seed) : state_(seed) {}
    // A generator for one named purpose ("w_q", "dropout/b3/h1"): independent streams
    // that do not shift when another stream draws more numbers.
    static Rng for_stream(uint64_t seed, const std::string& stream);

    uint64_t next_u64();
    // Skips `count` draws in O(1): SplitMix64's state only ever advances by one constant.
    void discard(uint64_t count) { state_ += count * kIncrement; }
    // Uniform in [0, 1) with 24 random bits: exactly representable in float.
    float uniform01();
    // Uniform in [low, high).
    float uniform(float low, float high) { return low + (high - low) * uniform01(); }

private:
    static constexpr uint64_t kIncrement = 0x9E3779B97F4A7C15ull;
    uint64_t state_;
};

// FNV-1a over the bytes of `text`; used to turn names and tokens into seeds.
uint64_t hash_string(const std::string& text);

}  // namespace attn
