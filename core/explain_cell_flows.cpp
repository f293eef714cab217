// explain_cell's flows: where an input, a weight or a bias element goes (the cells of
// later steps that read it), for the Given and Parameter rules.
#include <algorithm>

#include "core/explain_cell_parts.h"

namespace attn::explain_parts {

namespace {

// Every cell of projection step `step` in output feature `o` (all batch items and rows;
// not the bias_k / bias_v row appended after K and V, which no weight made).
StepCells feature_cells(const Step& step, int64_t o) {
    const Tensor& t = step.tensor;
    StepCells out{step.id, {}};
    if (step.provenance.per_head) {
        const int64_t dh = t.dim(3);
        for (int64_t b = 0; b < t.dim(0); ++b)
            for (int64_t n = 0; n < t.dim(2); ++n) out.cells.push_back({b, o / dh, n, o % dh});
    } else {
        const int64_t rows = t.dim(1) - (step.provenance.appended_bias_row ? 1 : 0);
        for (int64_t b = 0; b < t.dim(0); ++b)
            for (int64_t n = 0; n < rows; ++n) out.cells.push_back({b, n, o});
    }
    return out;
}

// The row of `o` inside the step's weight when `weight` is one of its parts, else -1.
int64_t row_in_step_weight(const Trace& trace, const Step& step, WeightId weight, int64_t row) {
    if (!step.provenance.has_weight) return -1;
    int64_t first = 0;
    for (WeightId part : weight_parts(step.provenance.weight)) {
        if (part == weight) return first + row;
        first += linear_params(trace.weights(), part).weight.rows();
    }
    return -1;
}

}  // namespace

// An input cell x[b, n, i] feeds every output feature of row n of the projections reading
// it; a model's tokens and layer input feed lookups, the norm and the residual instead.
void input_flows(const Trace& trace, CellExplanation& e) {
    if (e.cell.step == StepId::Tokens || e.cell.step == StepId::LayerInput) {
        model_input_flows(trace, e);
        return;
    }
    const int64_t b = e.cell.index[0], n = e.cell.index[1];
    for (const Step& s : trace.steps) {
        if (s.kind != StepKind::Projection || !s.has_primary_source() || s.primary_source() != e.cell.step) continue;
        StepCells cells{s.id, {}};
        const Tensor& t = s.tensor;
        if (s.provenance.per_head) {
            for (int64_t h = 0; h < t.dim(1); ++h)
                for (int64_t d = 0; d < t.dim(3); ++d) cells.cells.push_back({b, h, n, d});
        } else {
            for (int64_t o = 0; o < t.dim(2); ++o) cells.cells.push_back({b, n, o});
        }
        e.flows.push_back(std::move(cells));
    }
}

// A weight or bias element of row o feeds output feature o of every projection using it.
void parameter_flows(const Trace& trace, CellExplanation& e) {
    WeightId part;
    int64_t part_row;
    if (!weight_row(trace, e.cell.weight, e.cell.row, part, part_row)) return;
    for (const Step& s : trace.steps) {
        const int64_t o = row_in_step_weight(trace, s, part, part_row);
        if (o >= 0) e.flows.push_back(feature_cells(s, o));
    }
}


}  // namespace attn::explain_parts
