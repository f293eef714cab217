// The attention forward: configuration + weights + inputs -> Trace.
//
// This is the single place attention is computed. Each variant (split, stacked,
// fused) records the steps it really performs, in order, so a learner can compare
// how the three implementations get to the same `out`.
#pragma once

#include <memory>
#include <vector>

#include "core/config.h"
#include "core/kv_cache.h"
#include "core/result.h"
#include "core/trace.h"
#include "core/weights.h"

namespace attn {

// Validates `config`, checks shapes, then runs the forward and records every step.
// An optional `custom_mask` (L*S row-major, 1 = masked) is combined with config.mask;
// it lets callers (and tests) mask arbitrary cells, including whole rows.
Result<Trace> run_attention(const AttentionConfig& config, std::shared_ptr<const AttentionWeights> weights,
                            const AttentionInputs& inputs,
                            const std::vector<uint8_t>& custom_mask = {});
// The same with weights the trace keeps a copy of.
Result<Trace> run_attention(const AttentionConfig& config, const AttentionWeights& weights,
                            const AttentionInputs& inputs,
                            const std::vector<uint8_t>& custom_mask = {});

// A block of query rows of a causal self-attention against the KV cache: rows
// [block.first, block.first + block.count) of inputs.query (the whole (B, L, d_in) input)
// are projected, their keys (after RoPE, at their absolute positions) and values appended
// to `cache`, and each row attends to every cached position up to its own. The prefill is
// the block {0, P}; decode step p the block {p, 1}. `cache` must hold at least block.first
// positions (more are dropped: the step is computed again from there); an empty cache is
// made with room for L positions. The trace records k_cache and v_cache, (B, H_kv, S_t, d_h),
// views of the cache after the append, and maps of (B, H, count, S_t). Each row equals the
// same row of run_attention within float rounding (its products sum in another order).
// `config.decode_from` is not read: any valid block of a causal self-attention runs.
Result<Trace> run_attention_block(const AttentionConfig& config, std::shared_ptr<const AttentionWeights> weights,
                                  const AttentionInputs& inputs, KvCache& cache, QueryBlock block,
                                  const std::vector<uint8_t>& custom_mask = {});

// Convenience: default weights and inputs from config.seed.
Result<Trace> run_attention(const AttentionConfig& config);

}  // namespace attn
