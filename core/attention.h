// The attention forward: configuration + weights + inputs -> Trace.
//
// This is the single place attention is computed. Each variant (split, stacked,
// fused) records the steps it really performs, in order, so a learner can compare
// how the three implementations get to the same `out`.
#pragma once

#include <memory>
#include <vector>

#include "core/config.h"
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

// Convenience: default weights and inputs from config.seed.
Result<Trace> run_attention(const AttentionConfig& config);

}  // namespace attn
