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
    p.mask = c.mask != MaskKind::None || custom_mask;
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
    s.insert(s.end(), {StepId::AttnScores, StepId::AttnScaled});
    if (p.mask) s.push_back(StepId::AttnMasked);
    s.push_back(StepId::AttnWeights);
    if (p.dropout) s.push_back(StepId::AttnDropped);
    s.push_back(StepId::Context);
    if (p.join == HeadJoin::TransposeContiguousView) s.push_back(StepId::ContextSplit);
    s.insert(s.end(), {StepId::Concat, StepId::Out});
    return s;
}

std::vector<StepId> planned_steps(const AttentionConfig& config) { return planned_steps(plan_for(config)); }

}  // namespace attn
