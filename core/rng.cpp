#include "core/rng.h"

namespace attn {

uint64_t hash_string(const std::string& text) {
    uint64_t h = 1469598103934665603ull;
    for (unsigned char c : text) {
        h ^= c;
        h *= 1099511628211ull;
    }
    return h;
}

Rng Rng::for_stream(uint64_t seed, const std::string& stream) {
    Rng mixer(seed ^ hash_string(stream));
    return Rng(mixer.next_u64());
}

uint64_t Rng::next_u64() {
    uint64_t z = (state_ += kIncrement);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

float Rng::uniform01() { return static_cast<float>(next_u64() >> 40) * (1.0f / 16777216.0f); }

}  // namespace attn
