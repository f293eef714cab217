// The three variants as data: how q, k, v are produced and how heads are joined.
//
// The plan's rows are the forward's record: which steps, in which order, of which kind,
// computed from which steps. They are the step table's rows (core/step_id.h) that the
// configuration turns on, each row saying when it is recorded, what it reads and which
// operand lane it feeds. The forward (attention.cpp) hands each planned step its tensor
// and the trace lists them in the plan's order, so the memory estimate, the tests and the
// CLI's --list-steps read the same list the forward records. A new step is its table row
// and one line of the forward; nothing here changes.
#pragma once

#include <vector>

#include "core/config.h"
#include "core/step_id.h"
#include "core/trace.h"

namespace attn {

// How the projections produce q, k and v.
enum class QkvSource {
    SeparateProjections,  // split: three nn.Linear layers, then view + transpose into heads
    FusedThenSlices,      // fused: one (3E, E) projection, q/k/v are column slices (views)
    PerHeadProjections,   // stacked: H small modules per tensor, heads born separate
};

// How the per-head contexts become one (B, L, E) tensor again.
enum class HeadJoin {
    TransposeContiguousView,  // context.transpose(1, 2).contiguous().view(B, L, E)
    Cat,                      // torch.cat of the H per-head outputs
};

struct ForwardPlan {
    QkvSource qkv = QkvSource::SeparateProjections;
    HeadJoin join = HeadJoin::TransposeContiguousView;
    bool cross = false;    // separate key and value inputs
    bool mask = false;     // a mask step (config mask or a caller's custom mask)
    bool dropout = false;  // a dropout step (p > 0)
    bool mask_before_scale = false;  // attn_masked before attn_scaled (the from-scratch order)
    bool rope = false;               // rope_cos, rope_sin, q_rot, k_rot after the heads
    bool cache = false;              // k_cache, v_cache: a block of rows against the KV cache (decode)
    bool repeat_kv = false;          // k_repeated, v_repeated (H_kv < H)
    bool average = false;            // attn_weights_avg
    bool out_proj = true;            // `out`; without it the trace ends at concat

    // Whether a step table row recorded `when` belongs in this plan (StepInfo::when).
    bool turns_on(StepWhen when) const;
};

// The plan for `config`; `custom_mask` says a caller-supplied mask will be combined in,
// `cache` that the forward runs a block of rows against the KV cache (run_attention_block).
ForwardPlan plan_for(const AttentionConfig& config, bool custom_mask = false, bool cache = false);

// One step the forward records: what it is, the operation that makes it, and the steps
// it is computed from in argument order (scores: q, k; context: weights, v).
struct PlannedStep {
    StepId id;
    StepKind kind;
    std::vector<StepId> sources;
};
// The steps the forward records for this plan, in order.
std::vector<PlannedStep> planned_step_rows(const ForwardPlan& plan);
// Their ids alone.
std::vector<StepId> planned_steps(const ForwardPlan& plan);
std::vector<StepId> planned_steps(const AttentionConfig& config);

}  // namespace attn
