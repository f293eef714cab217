#include "core/forward_plan.h"

namespace attn {

ForwardPlan plan_for(const AttentionConfig& c, bool custom_mask, bool cache) {
    ForwardPlan p;
    switch (c.variant) {
        case Variant::Split:
            p.qkv = QkvSource::SeparateProjections;
            p.join = HeadJoin::TransposeContiguousView;
            break;
        case Variant::Fused:
            p.qkv = QkvSource::FusedThenSlices;
            p.join = HeadJoin::TransposeContiguousView;
            break;
        case Variant::Stacked:
            p.qkv = QkvSource::PerHeadProjections;
            p.join = HeadJoin::Cat;
            break;
    }
    p.cross = c.is_cross();
    p.mask = c.has_mask() || custom_mask;
    p.mask_before_scale = c.mask_before_scale;
    p.rope = c.rope;
    p.cache = cache;
    p.repeat_kv = c.H_kv() < c.H();
    p.average = c.average_weights;
    p.out_proj = !c.no_out_proj;
    p.dropout = c.dropout > 0.0f;
    return p;
}

namespace {

using Rows = std::vector<PlannedStep>;

// The inputs, then q, k and v projected into heads the way the plan's variant does it.
void plan_projections(const ForwardPlan& p, Rows& s) {
    s.push_back({StepId::Input, StepKind::Input, {}});
    const StepId key_input = p.cross ? StepId::KeyInput : StepId::Input;
    const StepId value_input = p.cross ? StepId::ValueInput : StepId::Input;
    if (p.cross) s.insert(s.end(), {{StepId::KeyInput, StepKind::Input, {}}, {StepId::ValueInput, StepKind::Input, {}}});
    switch (p.qkv) {
        case QkvSource::PerHeadProjections:  // stacked: heads born separate
            s.insert(s.end(), {{StepId::QHeads, StepKind::Projection, {StepId::Input}},
                               {StepId::KHeads, StepKind::Projection, {key_input}},
                               {StepId::VHeads, StepKind::Projection, {value_input}}});
            return;
        case QkvSource::FusedThenSlices:
            s.insert(s.end(), {{StepId::Qkv, StepKind::Projection, {StepId::Input}},
                               {StepId::Q, StepKind::Slice, {StepId::Qkv}},
                               {StepId::K, StepKind::Slice, {StepId::Qkv}},
                               {StepId::V, StepKind::Slice, {StepId::Qkv}}});
            break;
        case QkvSource::SeparateProjections:
            s.insert(s.end(), {{StepId::Q, StepKind::Projection, {StepId::Input}},
                               {StepId::K, StepKind::Projection, {key_input}},
                               {StepId::V, StepKind::Projection, {value_input}}});
            break;
    }
    s.insert(s.end(), {{StepId::QSplit, StepKind::View, {StepId::Q}},
                       {StepId::KSplit, StepKind::View, {StepId::K}},
                       {StepId::VSplit, StepKind::View, {StepId::V}},
                       {StepId::QHeads, StepKind::Transpose, {StepId::QSplit}},
                       {StepId::KHeads, StepKind::Transpose, {StepId::KSplit}},
                       {StepId::VHeads, StepKind::Transpose, {StepId::VSplit}}});
}

// Scores to context, from the q, k and v heads the earlier rows end with.
void plan_attention(const ForwardPlan& p, StepId q, StepId k, StepId v, Rows& s) {
    s.push_back({StepId::AttnScores, StepKind::Scores, {q, k}});
    StepId softmax_input = StepId::AttnScaled;
    if (p.mask && p.mask_before_scale) {
        s.insert(s.end(), {{StepId::AttnMasked, StepKind::Mask, {StepId::AttnScores}},
                           {StepId::AttnScaled, StepKind::Scale, {StepId::AttnMasked}}});
    } else {
        s.push_back({StepId::AttnScaled, StepKind::Scale, {StepId::AttnScores}});
        if (p.mask) {
            s.push_back({StepId::AttnMasked, StepKind::Mask, {StepId::AttnScaled}});
            softmax_input = StepId::AttnMasked;
        }
    }
    s.push_back({StepId::AttnWeights, StepKind::Softmax, {softmax_input}});
    if (p.dropout) s.push_back({StepId::AttnDropped, StepKind::Dropout, {StepId::AttnWeights}});
    // nn.MultiheadAttention returns (and averages) the weights after dropout.
    if (p.average) s.push_back({StepId::AttnWeightsAvg, StepKind::HeadMean, {p.dropout ? StepId::AttnDropped : StepId::AttnWeights}});
    s.push_back({StepId::Context, StepKind::WeightedSum, {p.dropout ? StepId::AttnDropped : StepId::AttnWeights, v}});
}

}  // namespace

std::vector<PlannedStep> planned_step_rows(const ForwardPlan& p) {
    Rows s;
    plan_projections(p, s);
    StepId q = StepId::QHeads, k = StepId::KHeads, v = StepId::VHeads;
    if (p.rope) {
        s.insert(s.end(), {{StepId::RopeCos, StepKind::RopeTable, {}},
                           {StepId::RopeSin, StepKind::RopeTable, {}},
                           {StepId::QRot, StepKind::Rotation, {StepId::QHeads, StepId::RopeCos, StepId::RopeSin}},
                           {StepId::KRot, StepKind::Rotation, {StepId::KHeads, StepId::RopeCos, StepId::RopeSin}}});
        q = StepId::QRot;
        k = StepId::KRot;
    }
    if (p.cache) {  // the block's rows appended to the earlier positions' (keys after RoPE)
        s.insert(s.end(), {{StepId::KCache, StepKind::CacheAppend, {k}}, {StepId::VCache, StepKind::CacheAppend, {v}}});
        k = StepId::KCache;
        v = StepId::VCache;
    }
    if (p.repeat_kv) {
        s.insert(s.end(), {{StepId::KRepeated, StepKind::RepeatKv, {k}}, {StepId::VRepeated, StepKind::RepeatKv, {v}}});
        k = StepId::KRepeated;
        v = StepId::VRepeated;
    }
    plan_attention(p, q, k, v, s);
    switch (p.join) {
        case HeadJoin::TransposeContiguousView:
            s.insert(s.end(), {{StepId::ContextSplit, StepKind::Transpose, {StepId::Context}},
                               {StepId::Concat, StepKind::Concat, {StepId::ContextSplit}}});
            break;
        case HeadJoin::Cat: s.push_back({StepId::Concat, StepKind::Concat, {StepId::Context}}); break;
    }
    if (p.out_proj) s.push_back({StepId::Out, StepKind::Projection, {StepId::Concat}});
    return s;
}

std::vector<StepId> planned_steps(const ForwardPlan& p) {
    std::vector<StepId> ids;
    for (const PlannedStep& step : planned_step_rows(p)) ids.push_back(step.id);
    return ids;
}

std::vector<StepId> planned_steps(const AttentionConfig& config) { return planned_steps(plan_for(config)); }

}  // namespace attn
