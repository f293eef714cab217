// The configurations the tests run, written once: sizes first, then one small function per
// thing a test turns on, so a test reads `causal(sized(4, 6, 2))` instead of building an
// AttentionConfig field by field. Every field not named keeps AttentionConfig's default.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "core/config.h"

namespace attn::test_configs {

// L queries (and keys) of width E = `hidden_dim` in H heads, `batch` items.
inline AttentionConfig sized(int seq_len, int hidden_dim, int num_heads, int batch = 1) {
    AttentionConfig c;
    c.batch = batch;
    c.seq_len = seq_len;
    c.hidden_dim = hidden_dim;
    c.num_heads = num_heads;
    return c;
}

// The small configuration most tests start from: B = 2, L = 5, E = 12, H = 3.
inline AttentionConfig small_batch() { return sized(5, 12, 3, /*batch=*/2); }

inline AttentionConfig masked(AttentionConfig c, MaskKind mask) {
    c.mask = mask;
    return c;
}
inline AttentionConfig causal(AttentionConfig c) { return masked(std::move(c), MaskKind::Causal); }

inline AttentionConfig with_variant(AttentionConfig c, Variant variant) {
    c.variant = variant;
    return c;
}

inline AttentionConfig seeded(AttentionConfig c, uint64_t seed) {
    c.seed = seed;
    return c;
}

inline AttentionConfig in_dtype(AttentionConfig c, DType dtype) {
    c.dtype = dtype;
    return c;
}

// Rotary position embedding on q and k, `offset` positions into the sequence.
inline AttentionConfig rotated(AttentionConfig c, RopeStyle style = RopeStyle::Half, int offset = 0) {
    c.rope = true;
    c.rope_style = style;
    c.position_offset = offset;
    return c;
}

// Grouped-query heads: H query heads share `kv_heads` key/value heads.
inline AttentionConfig grouped(AttentionConfig c, int kv_heads) {
    c.num_kv_heads = kv_heads;
    return c;
}

// Any other field: with(c, &AttentionConfig::bias, false).
template <typename T, typename V>
AttentionConfig with(AttentionConfig c, T AttentionConfig::*field, V value) {
    c.*field = std::move(value);
    return c;
}

// A configuration with a name for CAPTURE and SUBCASE.
struct NamedConfig {
    std::string name;
    AttentionConfig config;
};

// `base` in each way of drawing the heads a test of the canvas must cover: the three
// variants (split, fused, stacked), RoPE, and grouped-query heads (RoPE with them too).
// `base.num_heads` must be even (the grouped case halves it).
inline std::vector<NamedConfig> every_head_layout(const AttentionConfig& base) {
    return {
        {"split", with_variant(base, Variant::Split)},
        {"fused", with_variant(base, Variant::Fused)},
        {"stacked", with_variant(base, Variant::Stacked)},
        {"rope", rotated(base)},
        {"grouped-query heads", grouped(base, base.num_heads / 2)},
        {"rope + grouped-query heads", grouped(rotated(base), base.num_heads / 2)},
    };
}

}  // namespace attn::test_configs
