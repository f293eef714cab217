// Decode steps against a KV cache (core/attention.h, run_attention_block): each row computed
// one at a time, attending to the cached keys and values of the earlier positions, equals
// the same row of the whole causal pass within float rounding (a one-row product sums in
// another order than the whole product) at every step, for every head layout, RoPE with
// both pairings and an offset, padding, a window and bfloat16; the cache grows one row per
// step and holds H_kv heads, keys after RoPE.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/weights.h"
#include "core/explain_cell.h"
#include "tests/explain_cell_checks.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::test_configs;

namespace {

// Steps whose key axis counts the block's own new rows (their position is first + index);
// every other key axis counts absolute positions 0 .. S_t - 1.
bool keys_are_new_rows(StepId id) {
    switch (id) {
        case StepId::K: case StepId::V: case StepId::KSplit: case StepId::VSplit:
        case StepId::KHeads: case StepId::VHeads: case StepId::KRot: return true;
        default: return false;
    }
}

// The whole pass's step holding what a block's step holds: the cache is the whole pass's
// keys after RoPE (or its key heads) and its value heads.
StepId whole_pass_step(StepId id, const AttentionConfig& c) {
    if (id == StepId::KCache) return c.rope ? StepId::KRot : StepId::KHeads;
    if (id == StepId::VCache) return StepId::VHeads;
    return id;
}

// Index of a block's cell in the whole pass: query rows and new key rows move by `first`.
std::vector<int64_t> whole_pass_index(const Tensor& t, StepId id, std::vector<int64_t> index, int first) {
    for (int d = 0; d < t.rank(); ++d) {
        const DimRole role = t.dim_roles()[static_cast<size_t>(d)];
        if (role == DimRole::QueryPos || (role == DimRole::KeyPos && keys_are_new_rows(id))) index[static_cast<size_t>(d)] += first;
    }
    return index;
}

// Every cell of every step of `block` against the whole pass, within `tolerance` times the
// step's largest magnitude; masked cells (-inf) must be masked in both.
void check_block_against_whole(const Trace& block, const Trace& whole, float tolerance) {
    for (const Step& step : block.steps) {
        const Step* reference = whole.find(whole_pass_step(step.id, block.config));
        const std::string name = step.name();
        CAPTURE(name);
        REQUIRE(reference != nullptr);
        const Tensor& t = step.tensor;
        float largest = 1e-6f;
        for (float v : reference->tensor.to_vector())
            if (std::isfinite(v)) largest = std::max(largest, std::fabs(v));
        float worst = 0;
        std::vector<int64_t> index(static_cast<size_t>(t.rank()), 0);
        for (int64_t k = 0; k < t.numel(); ++k) {
            int64_t rest = k;
            for (int d = t.rank() - 1; d >= 0; --d) {
                index[static_cast<size_t>(d)] = rest % t.dim(d);
                rest /= t.dim(d);
            }
            const float got = t.at(index), want = reference->tensor.at(whole_pass_index(t, step.id, index, block.block.first));
            if (std::isinf(want) || std::isinf(got)) CHECK(got == want);
            else worst = std::max(worst, std::fabs(got - want));
        }
        CAPTURE(worst);
        CHECK(worst <= tolerance * largest);
    }
}

// The prefill {0, P}, then each row P .. L-1, each against the whole pass.
void check_generation(const AttentionConfig& c, int prefill, float tolerance) {
    const auto weights = std::make_shared<const AttentionWeights>(default_weights(c));
    const AttentionInputs inputs = default_inputs(c);
    const Result<Trace> whole = run_attention(c, weights, inputs);
    REQUIRE_MESSAGE(whole.ok(), whole.error());
    KvCache cache;
    for (QueryBlock block{0, prefill}; block.first < c.L(); block = QueryBlock{block.first + block.count, 1}) {
        CAPTURE(block.first);
        const Result<Trace> step = run_attention_block(c, weights, inputs, cache, block);
        REQUIRE_MESSAGE(step.ok(), step.error());
        const Tensor& k_cache = step->find(StepId::KCache)->tensor;
        CHECK(k_cache.dim(1) == c.H_kv());  // repeated after the cache, not in it
        CHECK(k_cache.dim(2) == block.first + block.count);
        CHECK(step->find(StepId::AttnScores)->tensor.dim(2) == block.count);
        CHECK(step->decode_position() == (block.first >= prefill ? block.first : -1));  // the prefill is no decode step
        check_block_against_whole(step.value(), whole.value(), tolerance);
    }
}

}  // namespace

TEST_CASE("every decode row equals the same row of the whole causal pass at every step") {
    // float32: 1e-5 of the step's largest magnitude; bfloat16: a few of its ulps (2^-8).
    const std::vector<NamedConfig> configs = {
        {"MHA", causal(sized(6, 8, 2))},
        {"batch of 2", causal(sized(5, 12, 3, 2))},
        {"GQA 4 heads over 2", grouped(causal(sized(6, 16, 4)), 2)},
        {"MQA", grouped(causal(sized(5, 16, 4)), 1)},
        {"RoPE half, offset 5", rotated(causal(sized(6, 8, 2)), RopeStyle::Half, 5)},
        {"RoPE interleaved with GQA", grouped(rotated(causal(sized(7, 16, 4)), RopeStyle::Interleaved), 2)},
        {"fused", with_variant(causal(sized(5, 8, 2)), Variant::Fused)},
        {"stacked", with_variant(causal(sized(5, 8, 2)), Variant::Stacked)},
        {"mask before scale", with(causal(sized(5, 8, 2)), &AttentionConfig::mask_before_scale, true)},
        {"no bias", with(causal(sized(5, 8, 2)), &AttentionConfig::bias, false)},
    };
    for (const NamedConfig& named : configs) {
        CAPTURE(named.name);
        for (int prefill : {1, 3}) {
            CAPTURE(prefill);
            check_generation(named.config, prefill, 1e-5f);
        }
    }
}

TEST_CASE("decode rows keep padding and a sliding window, and bfloat16 agrees within its rounding") {
    AttentionConfig padded = sized(6, 8, 2, 2);
    padded.mask_presets.causal = true;
    padded.mask_presets.padding = true;
    padded.valid_lengths = {6, 4};
    check_generation(padded, 2, 1e-5f);
    AttentionConfig window = sized(7, 8, 2);
    window.mask_presets.window = true;
    window.window = 3;
    check_generation(window, 2, 1e-5f);
    check_generation(in_dtype(rotated(causal(sized(6, 16, 4))), DType::BFloat16), 2, 1.6e-2f);
}

TEST_CASE("a step computed again from an earlier position leaves the traces made before as they were") {
    const AttentionConfig c = causal(sized(6, 8, 2));
    const auto weights = std::make_shared<const AttentionWeights>(default_weights(c));
    const AttentionInputs inputs = default_inputs(c);
    KvCache cache;
    REQUIRE(run_attention_block(c, weights, inputs, cache, {0, 3}).ok());
    const Result<Trace> fourth = run_attention_block(c, weights, inputs, cache, {3, 1});
    REQUIRE(run_attention_block(c, weights, inputs, cache, {4, 1}).ok());
    const std::vector<float> before = fourth->find(StepId::KCache)->tensor.to_vector();
    // Back to position 3, then on with other inputs: the first trace's cache view is untouched.
    AttentionInputs other = inputs;
    other.query = Tensor::zeros(inputs.query.shape(), inputs.query.dim_names());
    REQUIRE(run_attention_block(c, weights, other, cache, {3, 1}).ok());
    CHECK(cache.length() == 4);
    CHECK(fourth->find(StepId::KCache)->tensor.to_vector() == before);
}

TEST_CASE("--decode-from is refused where a decode step could not equal its row, with the reason") {
    const auto refusal = [](AttentionConfig c) {
        const Status s = validate(c);
        return s.ok() ? std::string() : s.message().id;
    };
    AttentionConfig c = causal(sized(6, 8, 2));
    for (int p : {0, 3, 5}) CHECK(refusal(with(c, &AttentionConfig::decode_from, p)).empty());
    CHECK(refusal(with(c, &AttentionConfig::decode_from, 6)) == "error.decode.range");
    CHECK(refusal(with(c, &AttentionConfig::decode_from, -1)) == "error.config.at_least_one");
    c.decode_from = 3;
    CHECK(refusal(with(c, &AttentionConfig::mask, MaskKind::None)) == "error.decode.not_causal");
    CHECK(refusal(with(c, &AttentionConfig::dropout, 0.1f)) == "error.decode.dropout");
    CHECK(refusal(with(c, &AttentionConfig::add_bias_kv, true)) == "error.decode.extra_keys");
    CHECK(refusal(with(c, &AttentionConfig::add_zero_attn, true)) == "error.decode.extra_keys");
    CHECK(refusal(with(c, &AttentionConfig::kv_len, 4)) == "error.decode.cross");
}

TEST_CASE("the KV cache's size per token follows 2 x layers x H_kv x d_h x bytes") {
    // A Llama-sized model: 32 layers, 32 query heads over 8 key/value heads, d_h 128, bfloat16.
    CHECK(kv_cache_bytes_per_token(32, 32, 128, DType::BFloat16) == 524288);  // MHA: 512 KiB
    CHECK(kv_cache_bytes_per_token(32, 8, 128, DType::BFloat16) == 131072);   // GQA: 128 KiB
    CHECK(kv_cache_bytes_per_token(32, 1, 128, DType::BFloat16) == 16384);    // MQA: 16 KiB
    CHECK(kv_cache_bytes_per_token(1, 2, 4, DType::Float32) == 64);
}

TEST_CASE("every cell of a decode step explains itself: masks at its absolute row, cached rows as cached") {
    AttentionConfig c = grouped(rotated(causal(sized(6, 16, 4)), RopeStyle::Half, 2), 2);
    const auto weights = std::make_shared<const AttentionWeights>(default_weights(c));
    const AttentionInputs inputs = default_inputs(c);
    KvCache cache;
    REQUIRE(run_attention_block(c, weights, inputs, cache, {0, 3}).ok());
    const Result<Trace> step = run_attention_block(c, weights, inputs, cache, {3, 1});
    REQUIRE(step.ok());
    attn::test::check_trace(step.value(), 7, {}, 12);
    // A cached row and the new row of k_cache.
    const int k_cache = step->index_of(StepId::KCache);
    const CellExplanation old_row = explain_cell(step.value(), CellAddress::of_step(StepId::KCache, {0, 1, 1, 2}));
    CHECK(old_row.rule == CellRule::Cached);
    CHECK(old_row.cached_position == 1);
    const CellExplanation new_row = explain_cell(step.value(), CellAddress::of_step(StepId::KCache, {0, 1, 3, 2}));
    CHECK(new_row.rule == CellRule::Move);
    CHECK(new_row.operand.step == StepId::KRot);
    CHECK(new_row.operand_value == step->steps[static_cast<size_t>(k_cache)].tensor.at({0, 1, 3, 2}));
}
