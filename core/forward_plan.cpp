#include "core/forward_plan.h"

#include <algorithm>
#include <array>
#include <cassert>
#include <optional>

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

bool ForwardPlan::turns_on(StepWhen when) const {
    switch (when) {
        case StepWhen::Model: return false;
        case StepWhen::Always: return true;
        case StepWhen::Cross: return cross;
        case StepWhen::Fused: return qkv == QkvSource::FusedThenSlices;
        case StepWhen::Stacked: return qkv == QkvSource::PerHeadProjections;
        case StepWhen::Unstacked: return qkv != QkvSource::PerHeadProjections;
        case StepWhen::Rope: return rope;
        case StepWhen::Cache: return cache;
        case StepWhen::RepeatKv: return repeat_kv;
        case StepWhen::Mask: return mask;
        case StepWhen::Dropout: return dropout;
        case StepWhen::Average: return average;
        case StepWhen::OutProj: return out_proj;
    }
    return false;
}

namespace {

// The step table's rows this plan turns on, in table order, with the kind its variant gives
// them; the from-scratch order (mask_before_scale) records the mask before the scale.
std::vector<const StepInfo*> rows_turned_on(const ForwardPlan& p) {
    std::vector<const StepInfo*> rows;
    for (const StepInfo& row : kStepTable)
        if (p.turns_on(row.when)) rows.push_back(&row);
    if (p.mask_before_scale) {
        const auto of_kind = [&](StepKind kind) {
            return std::find_if(rows.begin(), rows.end(), [&](const StepInfo* row) { return row->kind == kind; });
        };
        const auto mask = of_kind(StepKind::Mask), scale = of_kind(StepKind::Scale);
        if (mask != rows.end() && scale != rows.end() && scale < mask) std::rotate(scale, mask, mask + 1);
    }
    return rows;
}

// The kind a row's step has under this plan: its variant's other kind, if it has one.
StepKind kind_under(const ForwardPlan& p, const StepInfo& row) {
    const bool other = row.other.when != StepWhen::Always && p.turns_on(row.other.when);
    return other ? row.other.kind : row.kind;
}

}  // namespace

std::vector<PlannedStep> planned_step_rows(const ForwardPlan& p) {
    // The latest step on each lane (StepSide) so far; a lane nothing fed yet has none.
    std::array<std::optional<StepId>, 4> latest{};
    std::vector<PlannedStep> steps;
    for (const StepInfo* row : rows_turned_on(p)) {
        PlannedStep step{row->id, kind_under(p, *row), {}};
        for (int i = 0; i < row->sources.count; ++i) {
            const StepSource& source = row->sources.items[static_cast<size_t>(i)];
            const std::optional<StepId> id = source.latest ? latest[static_cast<size_t>(source.side)] : source.id;
            assert(id && "a step reads a lane no earlier step feeds (core/step_id.h)");
            if (id) step.sources.push_back(*id);
        }
        for (StepSide side : {StepSide::Query, StepSide::Key, StepSide::Value, StepSide::Map})
            if (row->feeds & step_lane::of(side)) latest[static_cast<size_t>(side)] = row->id;
        steps.push_back(std::move(step));
    }
    return steps;
}

std::vector<StepId> planned_steps(const ForwardPlan& p) {
    std::vector<StepId> ids;
    for (const PlannedStep& step : planned_step_rows(p)) ids.push_back(step.id);
    return ids;
}

std::vector<StepId> planned_steps(const AttentionConfig& config) { return planned_steps(plan_for(config)); }

}  // namespace attn
