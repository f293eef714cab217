// Split, stacked and fused projections give the same numbers to the bit at every step they
// share, on any processor. Eigen chooses a product's blocking from the cache sizes it reads
// from the processor, so the claim is tested under several cache sizes (as an AMD EPYC with
// 64 KiB L1d and 1 MiB L2, an Intel Xeon with 48 KiB and 2 MiB, a small and an odd one);
// the portable build (make test-portable, no -march=native) runs this file too.
#include <doctest/doctest.h>

#include <Eigen/Core>
#include <cstdint>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/trace_difference.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::test_configs;

namespace {

struct CacheSizes {
    const char* name;
    std::ptrdiff_t l1, l2, l3;
};
constexpr CacheSizes kCacheSizes[] = {
    {"AMD EPYC: 64 KiB, 1 MiB, 8 MiB", 64 << 10, 1 << 20, 8 << 20},
    {"Intel Xeon: 48 KiB, 2 MiB, 30 MiB", 48 << 10, 2 << 20, 30 << 20},
    {"small: 16 KiB, 128 KiB, 2 MiB", 16 << 10, 128 << 10, 2 << 20},
    {"odd: 40 KiB, 640 KiB, 3 MiB", 40 << 10, 640 << 10, 3 << 20},
};

// Restores the processor's own cache sizes when a test case ends.
struct CacheSizeGuard {
    std::ptrdiff_t l1 = Eigen::l1CacheSize(), l2 = Eigen::l2CacheSize(), l3 = Eigen::l3CacheSize();
    ~CacheSizeGuard() { Eigen::setCpuCacheSizes(l1, l2, l3); }
};

Trace traced(const AttentionConfig& c) {
    Result<Trace> t = run_attention(c);
    REQUIRE_MESSAGE(t.ok(), t.error());
    return std::move(t.value());
}

// The names of the steps A and B both record with one shape, each with its largest |A − B|.
std::vector<std::pair<std::string, float>> shared_steps(const Trace& a, const Trace& b) {
    const TraceDifference d = subtract_traces(a, b);
    std::vector<std::pair<std::string, float>> out;
    for (size_t i = 0; i < d.comparable.size(); ++i)
        if (d.comparable[i] == Comparable::Yes) out.emplace_back(a.steps[i].name(), largest_difference(d, static_cast<int>(i)));
    return out;
}

}  // namespace

TEST_CASE("split, stacked and fused projections agree to the bit under every cache size") {
    CacheSizeGuard restore;
    // Tiny shapes take Eigen's coefficient-wise product, larger ones its blocked GEMM (with
    // several depth blocks under the small caches); a batch of 2 and biases included.
    const std::vector<AttentionConfig> configs = {
        causal(sized(5, 8, 2)), sized(3, 4, 2), causal(sized(33, 64, 4, 2)), sized(70, 96, 3),
        with(causal(sized(17, 48, 6)), &AttentionConfig::bias, false)};
    for (const CacheSizes& caches : kCacheSizes) {
        const std::string cache_sizes = caches.name;  // the text, not the pointer
        CAPTURE(cache_sizes);
        Eigen::setCpuCacheSizes(caches.l1, caches.l2, caches.l3);
        for (const AttentionConfig& base : configs) {
            CAPTURE(base.seq_len);
            CAPTURE(base.hidden_dim);
            const Trace split = traced(with_variant(base, Variant::Split));
            for (Variant other : {Variant::Stacked, Variant::Fused}) {
                const std::string variant = to_string(other);
                CAPTURE(variant);
                const auto steps = shared_steps(split, traced(with_variant(base, other)));
                CHECK(steps.size() >= 6);  // at least scores, scaled, masked, weights, concat, out
                bool has_out = false;
                for (const auto& name_largest : steps) {  // no structured bindings: clang 14 cannot CAPTURE them
                    const auto& name = name_largest.first;
                    const auto& largest = name_largest.second;
                    CAPTURE(name);
                    CHECK(largest == 0.0f);
                    has_out |= name == "out";
                }
                CHECK(has_out);
            }
        }
    }
}
