#include "app/gui/state/follow_state.h"

#include <algorithm>

#include "app/gui/display/projection.h"

namespace attn::gui {

bool address_of(const Results& results, const CellRef& ref, CellAddress& out) {
    if (!results.trace || !results.model || !ref.valid() || ref.step >= static_cast<int>(results.model->steps.size()) ||
        ref.step >= static_cast<int>(results.trace->steps.size()))
        return false;
    const Step& step = results.trace->steps[static_cast<size_t>(ref.step)];
    const StepDisplay& sd = results.model->steps[static_cast<size_t>(ref.step)];
    if (ref.panel >= static_cast<int>(sd.panels.size()) || ref.row < 0 || ref.col < 0) return false;
    const Panel& panel = sd.panels[static_cast<size_t>(ref.panel)];
    const int64_t feature = panel_first_feature(sd, panel, std::max(1, results.trace->config.head_dim())) + ref.col;
    switch (ref.part) {
        case CellRef::Part::Result:
            if (ref.row >= panel.rows || ref.col >= panel.cols) return false;
            out = CellAddress::of_step(step.id, cell_index(panel, ref.row, ref.col));
            return true;
        case CellRef::Part::Input:
            if (!step.has_primary_source()) return false;
            out = CellAddress::of_step(step.primary_source(), {results.model->batch_item, ref.row, ref.col});
            return true;
        case CellRef::Part::Weight: out = CellAddress::of_weight(step.provenance.weight, feature, ref.row); return true;
        case CellRef::Part::Bias: out = CellAddress::of_bias(step.provenance.weight, feature); return true;
    }
    return false;
}

CellKeep cell_keep(const Results& results, const CellRef& cell) {
    const Step* step = cell.valid() ? results.step_at(cell.step) : nullptr;
    if (!step) return CellKeep{};
    return CellKeep{cell.step, step->id, step->tensor.shape()};
}

bool CellKeep::kept_in(const Results& results) const {
    const Step* now = id ? results.step_at(step) : nullptr;
    return now && now->id == *id && now->tensor.shape() == shape;
}

void refresh_follow(FollowUi& follow, const Results& results) {
    CellAddress address;
    // Differences from float32 are no values their rules explain (fp32_difference.h).
    const bool differences = results.model && results.model->colour_scale.difference_from_float32;
    if (!follow.cell.valid() || differences || !address_of(results, follow.cell, address)) {
        follow.lineage.reset();
        return;
    }
    if (follow.lineage && follow.trace.lock() == results.trace && follow.lineage->followed == address) return;
    follow.trace = results.trace;
    follow.lineage = std::make_shared<const Lineage>(cell_lineage(*results.trace, address));
}

}  // namespace attn::gui
