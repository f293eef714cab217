#include "core/forward_plan.h"

namespace attn {

ForwardPlan plan_for(const AttentionConfig& c, bool custom_mask) {
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
    p.repeat_kv = c.H_kv() < c.H();
    p.average = c.average_weights;
    p.out_proj = !c.no_out_proj;
    p.dropout = c.dropout > 0.0f;
    return p;
}

std::vector<StepId> planned_steps(const ForwardPlan& p) {
    std::vector<StepId> s{StepId::Input};
    if (p.cross) s.insert(s.end(), {StepId::KeyInput, StepId::ValueInput});
    switch (p.qkv) {
        case QkvSource::FusedThenSlices: s.push_back(StepId::Qkv); [[fallthrough]];
        case QkvSource::SeparateProjections:
            s.insert(s.end(), {StepId::Q, StepId::K, StepId::V, StepId::QSplit, StepId::KSplit, StepId::VSplit,
                               StepId::QHeads, StepId::KHeads, StepId::VHeads});
            break;
        case QkvSource::PerHeadProjections: s.insert(s.end(), {StepId::QHeads, StepId::KHeads, StepId::VHeads}); break;
    }
    if (p.rope) s.insert(s.end(), {StepId::RopeCos, StepId::RopeSin, StepId::QRot, StepId::KRot});
    if (p.repeat_kv) s.insert(s.end(), {StepId::KRepeated, StepId::VRepeated});
    s.push_back(StepId::AttnScores);
    if (p.mask && p.mask_before_scale) s.insert(s.end(), {StepId::AttnMasked, StepId::AttnScaled});
    else if (p.mask) s.insert(s.end(), {StepId::AttnScaled, StepId::AttnMasked});
    else s.push_back(StepId::AttnScaled);
    s.push_back(StepId::AttnWeights);
    if (p.average) s.push_back(StepId::AttnWeightsAvg);
    if (p.dropout) s.push_back(StepId::AttnDropped);
    s.push_back(StepId::Context);
    if (p.join == HeadJoin::TransposeContiguousView) s.push_back(StepId::ContextSplit);
    s.push_back(StepId::Concat);
    if (p.out_proj) s.push_back(StepId::Out);
    return s;
}

std::vector<StepId> planned_steps(const AttentionConfig& config) { return planned_steps(plan_for(config)); }

}  // namespace attn
