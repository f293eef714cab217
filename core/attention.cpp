// The attention forward, written once. Sections:
//   [1] Recording steps      StepRecorder appends steps with their text and provenance
//   [2] q, k, v into heads   the ForwardPlan's QkvSource as a table of the three roles
//   [3] Per-head attention   scores, scale, mask, softmax, dropout, weighted sum (core/ops.h)
//   [4] run_attention        input -> heads -> attention -> join -> out, as the plan says
#include "core/attention.h"

#include <cassert>
#include <cmath>
#include <string>

#include "core/forward_plan.h"
#include "core/ops.h"
#include "core/rng.h"
#include "core/step_text.h"

namespace attn {
namespace {

// ---------------------------------------------------------------------------
// [1] Recording steps
// ---------------------------------------------------------------------------
struct StepRecorder {
    Trace trace;

    const Tensor& add(StepId id, StepKind kind, Tensor tensor, std::vector<StepId> sources, Provenance provenance = {}) {
        Step step;
        StepText text = describe_step(id, trace.config);
        step.id = id;
        step.title = std::move(text.title);
        step.formula = std::move(text.formula);
        step.explanation = std::move(text.explanation);
        step.kind = kind;
        if (!sources.empty()) {
            const Step* primary = trace.find(sources.front());
            step.is_view = primary && tensor.shares_storage_with(primary->tensor);
        }
        step.tensor = std::move(tensor);
        step.sources = std::move(sources);
        step.provenance = std::move(provenance);
        trace.steps.push_back(std::move(step));
        return trace.steps.back().tensor;
    }
};

Provenance made_by(WeightId weight, bool per_head = false) {
    Provenance p;
    p.has_weight = true;
    p.weight = weight;
    p.per_head = per_head;
    return p;
}

Provenance permuted(std::vector<int> permutation) {
    Provenance p;
    p.permutation = std::move(permutation);
    return p;
}

// ---------------------------------------------------------------------------
// [2] q, k, v into heads
// ---------------------------------------------------------------------------

// What differs between q, k and v: their steps, weight, input and row role.
struct QkvRole {
    StepId projected, split, heads;
    WeightId weight;
    DimRole position;  // L for queries, S for keys and values
    int part;          // column block inside the fused qkv
};
constexpr QkvRole kQkvRoles[3] = {
    {StepId::Q, StepId::QSplit, StepId::QHeads, WeightId::Wq, DimRole::QueryPos, 0},
    {StepId::K, StepId::KSplit, StepId::KHeads, WeightId::Wk, DimRole::KeyPos, 1},
    {StepId::V, StepId::VSplit, StepId::VHeads, WeightId::Wv, DimRole::KeyPos, 2},
};

struct Heads {
    Tensor q, k, v;  // (B, H, L, d_h), (B, H, S, d_h), (B, H, S, d_h)
    Tensor& of(int part) { return part == 0 ? q : part == 1 ? k : v; }
};

// Records the projections and head reshapes the plan asks for; returns the heads.
// `inputs` and `input_steps`: the tensor and step each role projects (X, X_k, X_v).
Heads project_into_heads(StepRecorder& rec, const ForwardPlan& plan, const AttentionWeights& w,
                         const Tensor* const inputs[3], const StepId input_steps[3]) {
    const AttentionConfig& c = rec.trace.config;
    const int64_t E = c.E();
    const int H = c.H();
    Heads heads;
    if (plan.qkv == QkvSource::PerHeadProjections) {
        for (const QkvRole& r : kQkvRoles) {
            const LinearParams p = linear_params(w, r.weight);
            heads.of(r.part) = rec.add(r.heads, StepKind::Projection, per_head_linear(*inputs[r.part], p.weight, p.bias, H, r.position),
                                       {input_steps[r.part]}, made_by(r.weight, true));
        }
        return heads;
    }
    Tensor projected[3];  // (B, L, E), (B, S, E), (B, S, E)
    if (plan.qkv == QkvSource::FusedThenSlices) {
        Mat w_qkv(3 * E, E);  // (3E, E): W_q, W_k, W_v stacked
        w_qkv << w.w_q, w.w_k, w.w_v;
        Vec b_qkv;
        if (w.has_bias()) {
            b_qkv.resize(3 * E);
            b_qkv << w.b_q, w.b_k, w.b_v;
        }
        const Tensor qkv = rec.add(StepId::Qkv, StepKind::Projection,
                                   linear(*inputs[0], w_qkv, b_qkv, {DimRole::Batch, DimRole::QueryPos, DimRole::FusedQkv}),
                                   {input_steps[0]}, made_by(WeightId::Wqkv));
        for (const QkvRole& r : kQkvRoles) {
            Provenance slice;
            slice.column = r.part * E;
            slice.columns = E;
            projected[r.part] = rec.add(r.projected, StepKind::Slice, slice_columns(qkv, r.part, E, r.position),
                                        {StepId::Qkv}, slice);
        }
    } else {
        for (const QkvRole& r : kQkvRoles) {
            const LinearParams p = linear_params(w, r.weight);
            projected[r.part] = rec.add(r.projected, StepKind::Projection,
                                        linear(*inputs[r.part], p.weight, p.bias, {DimRole::Batch, r.position, DimRole::Embedding}),
                                        {input_steps[r.part]}, made_by(r.weight));
        }
    }
    Tensor split[3];  // (B, N, H, d_h) views
    for (const QkvRole& r : kQkvRoles)
        split[r.part] = rec.add(r.split, StepKind::View, split_heads(projected[r.part], H, r.position), {r.projected},
                                permuted({0, 1, 2, 2}));
    for (const QkvRole& r : kQkvRoles)
        heads.of(r.part) = rec.add(r.heads, StepKind::Transpose, swap_heads_and_positions(split[r.part]), {r.split},
                                   permuted({0, 2, 1, 3}));
    return heads;
}

// ---------------------------------------------------------------------------
// [3] Per-head attention
// ---------------------------------------------------------------------------
struct HeadMaps {  // the (B, H, L, S) tensors written by the per-head loop
    Tensor scores, scaled, masked, weights, dropped;
    Tensor context;  // (B, H, L, d_h)
    std::vector<uint8_t> fully_masked;  // (B, H, L)
};

HeadMaps attend_per_head(const AttentionConfig& c, const ForwardPlan& plan, const MaskRule& mask, const Heads& heads) {
    const int64_t B = c.batch, H = c.H(), L = c.L(), S = c.S(), dh = c.head_dim();
    const std::vector<DimRole> map_roles = {DimRole::Batch, DimRole::Head, DimRole::QueryPos, DimRole::KeyPos};
    HeadMaps m;
    m.scores = Tensor::uninitialized({B, H, L, S}, map_roles);
    m.scaled = Tensor::uninitialized({B, H, L, S}, map_roles);
    if (plan.mask) m.masked = Tensor::uninitialized({B, H, L, S}, map_roles);
    m.weights = Tensor::uninitialized({B, H, L, S}, map_roles);
    if (plan.dropout) m.dropped = Tensor::uninitialized({B, H, L, S}, map_roles);
    m.context = Tensor::uninitialized({B, H, L, dh}, {DimRole::Batch, DimRole::Head, DimRole::QueryPos, DimRole::HeadDim});
    m.fully_masked.assign(static_cast<size_t>(B * H * L), 0);

    const float scale = 1.0f / std::sqrt(static_cast<float>(dh));
    const auto map_of = [&](Tensor& t, int64_t bh) { return MatMap(t.mutable_data() + bh * L * S, L, S); };
    const auto read = [&](const float* map) { return ConstMatMap(map, L, S); };

    const int64_t work_per_head = L * S * dh;  // multiply-adds of one head's scores
    for_each_head(B * H, [&](int64_t bh) {
        const int64_t b = bh / H, h = bh % H;
        const Mat q_h = head_block(heads.q, b, h);  // (L, d_h)
        const Mat k_h = head_block(heads.k, b, h);  // (S, d_h)
        const Mat v_h = head_block(heads.v, b, h);  // (S, d_h)

        MatMap scores = map_of(m.scores, bh);  // (L, S)
        attention_scores(q_h, k_h, scores);
        MatMap scaled = map_of(m.scaled, bh);
        scale_scores(read(scores.data()), scale, scaled);
        const float* softmax_in = scaled.data();
        if (plan.mask) {
            MatMap masked = map_of(m.masked, bh);
            apply_mask(read(scaled.data()), mask, b, masked);
            softmax_in = masked.data();
        }
        MatMap weights = map_of(m.weights, bh);
        softmax_rows(read(softmax_in), weights, m.fully_masked.data() + bh * L);
        const float* attend = weights.data();
        if (plan.dropout) {
            MatMap dropped = map_of(m.dropped, bh);
            // One stream per (b, h): the same cells drop whatever the thread count.
            Rng rng = Rng::for_stream(c.dropout_seed, "dropout/" + std::to_string(b) + "/" + std::to_string(h));
            dropout(read(weights.data()), c.dropout, rng, dropped);
            attend = dropped.data();
        }
        weighted_sum(read(attend), v_h, MatMap(m.context.mutable_data() + bh * L * dh, L, dh));
    }, work_per_head);
    return m;
}

}  // namespace

// ---------------------------------------------------------------------------
// [4] run_attention
// ---------------------------------------------------------------------------
Result<Trace> run_attention(const AttentionConfig& c, const AttentionWeights& w, const AttentionInputs& inputs,
                            const std::vector<uint8_t>& custom_mask) {
    if (Status s = validate(c); !s) return Result<Trace>::failure(s.error());
    if (Status s = check_shapes(c, w, inputs); !s) return Result<Trace>::failure(s.error());
    if (!custom_mask.empty() && custom_mask.size() != static_cast<size_t>(c.L()) * static_cast<size_t>(c.S()))
        return Result<Trace>::failure("custom mask must have seq_len x kv_len entries");

    FlushDenormals flush;
    const ForwardPlan plan = plan_for(c, !custom_mask.empty());
    const int64_t B = c.batch, L = c.L(), S = c.S(), E = c.E();
    StepRecorder rec;
    rec.trace.config = c;
    rec.trace.weights = w;

    // Inputs: X, and for cross-attention X_k and X_v.
    const Tensor x = rec.add(StepId::Input, StepKind::Input,
                             inputs.query.contiguous().view({B, L, E}, {DimRole::Batch, DimRole::QueryPos, DimRole::Embedding}), {});
    Tensor x_k = x, x_v = x;
    StepId key_source = StepId::Input, value_source = StepId::Input;
    if (plan.cross) {
        x_k = rec.add(StepId::KeyInput, StepKind::Input,
                      inputs.key.contiguous().view({B, S, c.key_dim()}, {DimRole::Batch, DimRole::KeyPos, DimRole::KeyFeature}), {});
        x_v = rec.add(StepId::ValueInput, StepKind::Input,
                      inputs.value.contiguous().view({B, S, c.value_dim()}, {DimRole::Batch, DimRole::KeyPos, DimRole::ValueFeature}),
                      {});
        key_source = StepId::KeyInput;
        value_source = StepId::ValueInput;
    }

    // Projections into heads: (B, H, N, d_h) each.
    const Tensor* role_inputs[3] = {&x, &x_k, &x_v};
    const StepId role_input_steps[3] = {StepId::Input, key_source, value_source};
    const Heads heads = project_into_heads(rec, plan, w, role_inputs, role_input_steps);

    // Attention per head: (B, H, L, S) maps and the (B, H, L, d_h) context.
    MaskRule mask;
    mask.kind = c.mask;
    mask.valid_lengths = c.valid_lengths;
    mask.custom = &custom_mask;
    HeadMaps maps = attend_per_head(c, plan, mask, heads);
    rec.add(StepId::AttnScores, StepKind::Scores, std::move(maps.scores), {StepId::QHeads, StepId::KHeads});
    rec.add(StepId::AttnScaled, StepKind::Scale, std::move(maps.scaled), {StepId::AttnScores});
    StepId weights_source = StepId::AttnScaled;
    if (plan.mask) {
        Provenance applied;
        applied.mask = c.mask;
        if (c.mask == MaskKind::Padding) applied.valid_lengths = c.valid_lengths;
        applied.custom_mask = !custom_mask.empty();
        rec.add(StepId::AttnMasked, StepKind::Mask, std::move(maps.masked), {StepId::AttnScaled}, applied);
        weights_source = StepId::AttnMasked;
    }
    rec.add(StepId::AttnWeights, StepKind::Softmax, std::move(maps.weights), {weights_source});
    StepId attend_source = StepId::AttnWeights;
    if (plan.dropout) {
        rec.add(StepId::AttnDropped, StepKind::Dropout, std::move(maps.dropped), {StepId::AttnWeights});
        attend_source = StepId::AttnDropped;
    }
    const Tensor context = rec.add(StepId::Context, StepKind::WeightedSum, std::move(maps.context), {attend_source, StepId::VHeads});
    rec.trace.fully_masked_rows = std::move(maps.fully_masked);

    // Heads joined back into (B, L, E), then the output projection.
    Tensor concat;
    switch (plan.join) {
        case HeadJoin::TransposeContiguousView: {
            const Tensor context_split = rec.add(StepId::ContextSplit, StepKind::Transpose, swap_heads_and_positions(context),
                                                 {StepId::Context}, permuted({0, 2, 1, 3}));
            concat = rec.add(StepId::Concat, StepKind::Concat, merge_heads(context_split), {StepId::ContextSplit});
            break;
        }
        case HeadJoin::Cat:  // torch.cat of the heads' (B, L, d_h) outputs along the last dimension
            concat = rec.add(StepId::Concat, StepKind::Concat, merge_heads(swap_heads_and_positions(context)),
                             {StepId::Context}, permuted({0, 2, 1}));
            break;
    }
    const Tensor& out = rec.add(StepId::Out, StepKind::Projection,
                                linear(concat, w.w_o, w.b_o, {DimRole::Batch, DimRole::QueryPos, DimRole::Embedding}),
                                {StepId::Concat}, made_by(WeightId::Wo));
#ifndef NDEBUG
    std::vector<StepId> recorded;
    for (const Step& s : rec.trace.steps) recorded.push_back(s.id);
    assert(recorded == planned_steps(plan) && "the forward must record exactly the planned steps");
#endif
    // Finite inputs can still overflow float32 in a dot product; say so rather than
    // hand the learner a trace full of NaN.
    if (!out.all_finite())
        return Result<Trace>::failure("the scores overflow float32 (inputs or weights are too large, e.g. |x| ~ 1e20); "
                                      "scale them down");
    return std::move(rec.trace);
}

Result<Trace> run_attention(const AttentionConfig& config) {
    if (Status s = validate(config); !s) return Result<Trace>::failure(s.error());
    return run_attention(config, default_weights(config), default_inputs(config));
}

}  // namespace attn
