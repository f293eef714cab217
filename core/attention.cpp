// The attention forward, written once. Sections:
//   [1] Recording steps      StepRecorder appends steps with their text and provenance
//   [2] q, k, v into heads   the ForwardPlan's QkvSource as a table of the three roles
//   [3] Per-head attention   scores, scale and mask (in the chosen order), softmax, dropout,
//                            weighted sum (core/ops.h), rounded to the dtype after each op
//   [4] run_attention        input -> heads -> RoPE -> repeat_kv -> attention -> join -> out,
//                            as the plan says
#include "core/attention.h"

#include <cassert>
#include <cmath>
#include <limits>
#include <optional>
#include <string>

#include "core/extra_keys.h"
#include "core/forward_plan.h"
#include "core/head_average.h"
#include "core/mask_spec.h"
#include "core/ops.h"
#include "core/repeat_kv.h"
#include "core/rope.h"
#include "core/rng.h"
#include "core/torch_dropout.h"

namespace attn {
namespace {

// ---------------------------------------------------------------------------
// [1] Recording steps
// ---------------------------------------------------------------------------
struct StepRecorder {
    Trace trace;

    const Tensor& add(StepId id, StepKind kind, Tensor tensor, std::vector<StepId> sources, Provenance provenance = {}) {
        Step step;
        step.id = id;
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

// The emulated dtype's rounding of a whole tensor, in place (nothing for float32).
Tensor rounded(Tensor t, DType dtype) {
    if (dtype != DType::Float32) round_to_dtype_in_place(dtype, t.mutable_data(), t.numel());
    return t;
}

std::vector<float> to_values(const Vec& v) { return std::vector<float>(v.data(), v.data() + v.size()); }

// Records the projections and head reshapes the plan asks for; returns the heads.
// `inputs` and `input_steps`: the tensor and step each role projects (X, X_k, X_v).
// Keys and values have H_kv heads (H unless grouped-query), plus nn.MultiheadAttention's
// bias_k row (after the projection) and zero row (after the split) when asked for.
Heads project_into_heads(StepRecorder& rec, const ForwardPlan& plan, const AttentionWeights& w,
                         const Tensor* const inputs[3], const StepId input_steps[3]) {
    const AttentionConfig& c = rec.trace.config;
    const int64_t E = c.E();
    const int H = c.H();
    const DType dtype = c.dtype;
    Heads heads;
    if (plan.qkv == QkvSource::PerHeadProjections) {
        for (const QkvRole& r : kQkvRoles) {
            const LinearParams p = linear_params(w, r.weight);
            heads.of(r.part) = rec.add(r.heads, StepKind::Projection,
                                       rounded(per_head_linear(*inputs[r.part], p.weight, p.bias, H, r.position), dtype),
                                       {input_steps[r.part]}, made_by(r.weight, true));
        }
        return heads;
    }
    Tensor projected[3];  // (B, L, E), (B, S, H_kv*d_h), (B, S, H_kv*d_h)
    if (plan.qkv == QkvSource::FusedThenSlices) {
        Mat w_qkv(3 * E, w.w_q.cols());  // (3E, d_in): W_q, W_k, W_v stacked
        w_qkv << w.w_q, w.w_k, w.w_v;
        Vec b_qkv;
        if (w.has_bias()) {
            b_qkv.resize(3 * E);
            b_qkv << w.b_q, w.b_k, w.b_v;
        }
        const Tensor qkv = rec.add(StepId::Qkv, StepKind::Projection,
                                   rounded(linear(*inputs[0], w_qkv, b_qkv, {DimRole::Batch, DimRole::QueryPos, DimRole::FusedQkv}), dtype),
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
            Tensor y = rounded(linear(*inputs[r.part], p.weight, p.bias, {DimRole::Batch, r.position, DimRole::Embedding}), dtype);
            Provenance made = made_by(r.weight);
            if (r.part > 0 && c.add_bias_kv) {  // (B, S, W) -> (B, S + 1, W)
                y = append_bias_row(y, to_values(r.part == 1 ? w.bias_k : w.bias_v));
                made.appended_bias_row = true;
            }
            projected[r.part] = rec.add(r.projected, StepKind::Projection, std::move(y), {input_steps[r.part]}, made);
        }
    }
    Tensor split[3];  // (B, N, H or H_kv, d_h) views
    for (const QkvRole& r : kQkvRoles)
        split[r.part] = rec.add(r.split, StepKind::View, split_heads(projected[r.part], r.part == 0 ? H : c.H_kv(), r.position),
                                {r.projected}, permuted({0, 1, 2, 2}));
    for (const QkvRole& r : kQkvRoles) {
        Tensor t = swap_heads_and_positions(split[r.part]);
        Provenance moved = permuted({0, 2, 1, 3});
        if (r.part > 0 && c.add_zero_attn) {  // (B, H_kv, S, d_h) -> (B, H_kv, S + 1, d_h), a copy
            t = append_zero_row(t);
            moved.appended_zero_row = true;
        }
        heads.of(r.part) = rec.add(r.heads, StepKind::Transpose, std::move(t), {r.split}, moved);
    }
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

// The masks a forward combines: the configuration's (presets, file) and a caller's (L, S) cells.
struct Masks {
    const BoundMask* bound = nullptr;               // null when the configuration has no mask
    const std::vector<uint8_t>* custom = nullptr;   // (L, S), 1 = masked; may be empty
    float fill = -std::numeric_limits<float>::infinity();
};

// masked = scores with every mask applied; row_flags (L) gets 1 for rows with no key left.
void apply_masks(const Masks& masks, const ConstMatMap& scores, int64_t b, int64_t h, MatMap masked, uint8_t* row_flags) {
    const int64_t L = scores.rows(), cols = scores.cols();
    if (masks.bound) masks.bound->apply(scores, b, h, masked, row_flags);
    else masked = scores;
    if (!masks.custom || masks.custom->empty()) return;
    const int64_t S = static_cast<int64_t>(masks.custom->size()) / L;  // the caller's mask covers the real keys
    for (int64_t i = 0; i < L; ++i) {
        bool every_key_hidden = cols == S;
        for (int64_t j = 0; j < S; ++j) {
            const bool custom = (*masks.custom)[static_cast<size_t>(i * S + j)] != 0;
            if (custom) masked(i, j) = masks.fill;
            every_key_hidden = every_key_hidden && (custom || (masks.bound && masks.bound->hides_key(b, h, i, j)));
        }
        row_flags[i] = every_key_hidden ? 1 : 0;
    }
}

void round_block(DType dtype, float* values, int64_t count) {
    if (dtype != DType::Float32) round_to_dtype_in_place(dtype, values, count);
}

// heads.k and heads.v have H heads here (after repeat_kv) and S_total key rows.
HeadMaps attend_per_head(const AttentionConfig& c, const ForwardPlan& plan, const Masks& masks, const Heads& heads) {
    const int64_t B = c.batch, H = c.H(), L = c.L(), S = heads.k.dim(2), dh = c.head_dim();
    const DType dtype = c.dtype;
    const std::vector<DimRole> map_roles = {DimRole::Batch, DimRole::Head, DimRole::QueryPos, DimRole::KeyPos};
    HeadMaps m;
    m.scores = Tensor::uninitialized({B, H, L, S}, map_roles);
    m.scaled = Tensor::uninitialized({B, H, L, S}, map_roles);
    if (plan.mask) m.masked = Tensor::uninitialized({B, H, L, S}, map_roles);
    m.weights = Tensor::uninitialized({B, H, L, S}, map_roles);
    if (plan.dropout) m.dropped = Tensor::uninitialized({B, H, L, S}, map_roles);
    m.context = Tensor::uninitialized({B, H, L, dh}, {DimRole::Batch, DimRole::Head, DimRole::QueryPos, DimRole::HeadDim});
    m.fully_masked.assign(static_cast<size_t>(B * H * L), 0);

    const float scale = c.scale_factor();
    // torch's replayed mask when it covers every (b, h, i, j); the seeded streams otherwise.
    const bool replay_dropout = plan.dropout && static_cast<int64_t>(c.dropout_keep.size()) == B * H * L * S;
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
        round_block(dtype, scores.data(), L * S);
        MatMap scaled = map_of(m.scaled, bh);
        std::vector<uint8_t> mask_flags;  // (L): rows the masks leave without a key
        const float* softmax_in = scaled.data();
        if (plan.mask) {
            mask_flags.assign(static_cast<size_t>(L), 0);
            MatMap masked = map_of(m.masked, bh);
            if (plan.mask_before_scale) {  // mask the raw scores, then scale (the fill is scaled too)
                apply_masks(masks, read(scores.data()), b, h, masked, mask_flags.data());
                round_block(dtype, masked.data(), L * S);
                scale_scores(read(masked.data()), scale, scaled);
                round_block(dtype, scaled.data(), L * S);
            } else {
                scale_scores(read(scores.data()), scale, scaled);
                round_block(dtype, scaled.data(), L * S);
                apply_masks(masks, read(scaled.data()), b, h, masked, mask_flags.data());
                round_block(dtype, masked.data(), L * S);
                softmax_in = masked.data();
            }
        } else {
            scale_scores(read(scores.data()), scale, scaled);
            round_block(dtype, scaled.data(), L * S);
        }
        MatMap weights = map_of(m.weights, bh);
        uint8_t* flags = m.fully_masked.data() + bh * L;
        softmax_rows(read(softmax_in), weights, flags);  // in float32, then rounded (as Llama casts)
        round_block(dtype, weights.data(), L * S);
        for (size_t i = 0; i < mask_flags.size(); ++i) flags[i] |= mask_flags[i];
        const float* attend = weights.data();
        if (plan.dropout) {
            MatMap dropped = map_of(m.dropped, bh);
            if (replay_dropout) {  // torch's (B, H, L, S) keep mask, kept cells times torch's factor
                const uint8_t* keep = c.dropout_keep.data() + bh * L * S;
                const float factor = torch_dropout_scale(c.dropout);
                for (int64_t i = 0; i < L * S; ++i) dropped.data()[i] = keep[i] ? weights.data()[i] * factor : 0.0f;
            } else {
                Rng rng = dropout_stream(c.dropout_seed, b, h);
                dropout(read(weights.data()), c.dropout, rng, dropped);
            }
            round_block(dtype, dropped.data(), L * S);
            attend = dropped.data();
        }
        MatMap context(m.context.mutable_data() + bh * L * dh, L, dh);
        weighted_sum(read(attend), v_h, context);
        round_block(dtype, context.data(), L * dh);
    }, work_per_head);
    return m;
}

// A (rows, cols) matrix as a tensor with the given roles.
Tensor tensor_of(const Mat& m, std::vector<DimRole> roles) {
    Tensor t = Tensor::uninitialized({m.rows(), m.cols()}, std::move(roles));
    std::copy(m.data(), m.data() + m.size(), t.mutable_data());
    return t;
}

}  // namespace

// ---------------------------------------------------------------------------
// [4] run_attention
// ---------------------------------------------------------------------------
Result<Trace> run_attention(const AttentionConfig& c, const AttentionWeights& given_weights, const AttentionInputs& inputs,
                            const std::vector<uint8_t>& custom_mask) {
    return run_attention(c, std::make_shared<const AttentionWeights>(given_weights), inputs, custom_mask);
}

Result<Trace> run_attention(const AttentionConfig& c, std::shared_ptr<const AttentionWeights> shared_weights,
                            const AttentionInputs& inputs, const std::vector<uint8_t>& custom_mask) {
    if (!shared_weights) return Result<Trace>::failure(Message::internal("no weights given"));
    const AttentionWeights& given_weights = *shared_weights;
    if (Status s = validate(c); !s) return Result<Trace>::failure(s.message());
    if (Status s = check_shapes(c, given_weights, inputs); !s) return Result<Trace>::failure(s.message());
    if (!custom_mask.empty() && custom_mask.size() != static_cast<size_t>(c.L()) * static_cast<size_t>(c.S()))
        return Result<Trace>::failure(Message("error.attention.custom_mask_size"));

    FlushDenormals flush;
    const ForwardPlan plan = plan_for(c, !custom_mask.empty());
    const int64_t B = c.batch, L = c.L(), S = c.S();
    const DType dtype = c.dtype;
    StepRecorder rec;
    rec.trace.config = c;
    rec.trace.parameters = std::move(shared_weights);
    if (dtype != DType::Float32) {  // inputs and weights rounded first, as .to(dtype) does: on a copy
        auto rounded = std::make_shared<AttentionWeights>(given_weights);
        AttentionWeights& w = *rounded;
        for (Mat* m : {&w.w_q, &w.w_k, &w.w_v, &w.w_o}) round_to_dtype_in_place(dtype, m->data(), m->size());
        for (Vec* v : {&w.b_q, &w.b_k, &w.b_v, &w.b_o, &w.bias_k, &w.bias_v}) round_to_dtype_in_place(dtype, v->data(), v->size());
        rec.trace.parameters = std::move(rounded);
    }
    const AttentionWeights& w = rec.trace.weights();

    // Inputs: X, and for cross-attention X_k and X_v.
    const Tensor x = rec.add(StepId::Input, StepKind::Input,
                             rounded(inputs.query.contiguous(dtype != DType::Float32)
                                         .view({B, L, c.d_in()}, {DimRole::Batch, DimRole::QueryPos, DimRole::Embedding}),
                                     dtype),
                             {});
    Tensor x_k = x, x_v = x;
    StepId key_source = StepId::Input, value_source = StepId::Input;
    if (plan.cross) {
        x_k = rec.add(StepId::KeyInput, StepKind::Input,
                      rounded(inputs.key.contiguous(dtype != DType::Float32)
                                  .view({B, S, c.key_dim()}, {DimRole::Batch, DimRole::KeyPos, DimRole::KeyFeature}),
                              dtype),
                      {});
        x_v = rec.add(StepId::ValueInput, StepKind::Input,
                      rounded(inputs.value.contiguous(dtype != DType::Float32)
                                  .view({B, S, c.value_dim()}, {DimRole::Batch, DimRole::KeyPos, DimRole::ValueFeature}),
                              dtype),
                      {});
        key_source = StepId::KeyInput;
        value_source = StepId::ValueInput;
    }

    // Projections into heads: (B, H, L, d_h) and (B, H_kv, S_total, d_h).
    const Tensor* role_inputs[3] = {&x, &x_k, &x_v};
    const StepId role_input_steps[3] = {StepId::Input, key_source, value_source};
    Heads heads = project_into_heads(rec, plan, w, role_inputs, role_input_steps);
    StepId q_source = StepId::QHeads, k_source = StepId::KHeads, v_source = StepId::VHeads;

    // Rotary position embedding: (L, d_h) tables, then q and k rotated.
    if (plan.rope) {
        RopeTables tables = rope_tables(L, c.head_dim(), c.rope_base, c.position_offset, c.rope_style);
        const std::vector<DimRole> table_roles = {DimRole::QueryPos, DimRole::HeadDim};
        rec.add(StepId::RopeCos, StepKind::RopeTable, rounded(tensor_of(tables.cos, table_roles), dtype), {});
        rec.add(StepId::RopeSin, StepKind::RopeTable, rounded(tensor_of(tables.sin, table_roles), dtype), {});
        heads.q = rec.add(StepId::QRot, StepKind::Rotation, apply_rope(heads.q, tables, c.rope_style, dtype),
                          {StepId::QHeads, StepId::RopeCos, StepId::RopeSin});
        heads.k = rec.add(StepId::KRot, StepKind::Rotation, apply_rope(heads.k, tables, c.rope_style, dtype),
                          {StepId::KHeads, StepId::RopeCos, StepId::RopeSin});
        q_source = StepId::QRot;
        k_source = StepId::KRot;
    }
    // Grouped-query attention: each key/value head copied to the query heads of its group.
    if (plan.repeat_kv) {
        heads.k = rec.add(StepId::KRepeated, StepKind::RepeatKv, repeat_kv(heads.k, c.H()), {k_source});
        heads.v = rec.add(StepId::VRepeated, StepKind::RepeatKv, repeat_kv(heads.v, c.H()), {v_source});
        k_source = StepId::KRepeated;
        v_source = StepId::VRepeated;
    }

    // Attention per head: (B, H, L, S_total) maps and the (B, H, L, d_h) context.
    Masks masks;
    std::optional<BoundMask> bound;
    if (c.has_mask()) {
        MaskSpec spec = c.mask_spec();
        if (spec.valid_lengths.size() == 1) spec.valid_lengths.assign(static_cast<size_t>(B), spec.valid_lengths[0]);
        MaskSizes sizes;
        sizes.B = B;
        sizes.H = c.H();
        sizes.L = L;
        sizes.S = S;
        Result<BoundMask> bound_mask = BoundMask::bind(spec, sizes, dtype);
        if (!bound_mask) return Result<Trace>::failure(bound_mask.message());
        bound = std::move(bound_mask.value());
        masks.bound = &*bound;
    }
    masks.custom = &custom_mask;
    masks.fill = mask_fill_value(c.mask_fill, dtype);
    HeadMaps maps = attend_per_head(c, plan, masks, heads);
    rec.add(StepId::AttnScores, StepKind::Scores, std::move(maps.scores), {q_source, k_source});
    Provenance applied;
    applied.mask = c.mask;
    if (!c.mask_spec().valid_lengths.empty()) applied.valid_lengths = c.valid_lengths;
    applied.custom_mask = !custom_mask.empty();
    StepId weights_source = StepId::AttnScaled;
    if (plan.mask && plan.mask_before_scale) {
        rec.add(StepId::AttnMasked, StepKind::Mask, std::move(maps.masked), {StepId::AttnScores}, applied);
        rec.add(StepId::AttnScaled, StepKind::Scale, std::move(maps.scaled), {StepId::AttnMasked});
    } else {
        rec.add(StepId::AttnScaled, StepKind::Scale, std::move(maps.scaled), {StepId::AttnScores});
        if (plan.mask) {
            rec.add(StepId::AttnMasked, StepKind::Mask, std::move(maps.masked), {StepId::AttnScaled}, applied);
            weights_source = StepId::AttnMasked;
        }
    }
    const Tensor& weights = rec.add(StepId::AttnWeights, StepKind::Softmax, std::move(maps.weights), {weights_source});
    if (plan.average)
        rec.add(StepId::AttnWeightsAvg, StepKind::HeadMean, rounded(average_heads(weights), dtype), {StepId::AttnWeights});
    StepId attend_source = StepId::AttnWeights;
    if (plan.dropout) {
        rec.add(StepId::AttnDropped, StepKind::Dropout, std::move(maps.dropped), {StepId::AttnWeights});
        attend_source = StepId::AttnDropped;
    }
    const Tensor context = rec.add(StepId::Context, StepKind::WeightedSum, std::move(maps.context), {attend_source, v_source});
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
    bool finite = true;
    if (plan.out_proj) {
        const Tensor& out = rec.add(StepId::Out, StepKind::Projection,
                                    rounded(linear(concat, w.w_o, w.b_o, {DimRole::Batch, DimRole::QueryPos, DimRole::Embedding}), dtype),
                                    {StepId::Concat}, made_by(WeightId::Wo));
        finite = out.all_finite();
    } else {
        finite = concat.all_finite();
    }
#ifndef NDEBUG
    std::vector<StepId> recorded;
    for (const Step& s : rec.trace.steps) recorded.push_back(s.id);
    assert(recorded == planned_steps(plan) && "the forward must record exactly the planned steps");
#endif
    // Finite inputs can still overflow float32 in a dot product; say so rather than
    // hand the learner a trace full of NaN.
    if (!finite)
        return Result<Trace>::failure(Message(dtype == DType::Float16 ? "error.attention.overflow_float16"
                                                                      : "error.attention.overflow_float32"));
    return std::move(rec.trace);
}

Result<Trace> run_attention(const AttentionConfig& config) {
    if (Status s = validate(config); !s) return Result<Trace>::failure(s.message());
    return run_attention(config, default_weights(config), default_inputs(config));
}

}  // namespace attn
