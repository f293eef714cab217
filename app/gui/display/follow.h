// Follow a cell: the cells one number of a trace comes from and goes into, in every step,
// read off the core's cell explanations (core/explain_cell.h), never derived a second
// time. Display-free: the canvas outlines a step's lineage cells, the strip under it lists
// the followed number's value at each step.
//
//   cell_lineage   walks explanations backwards (operands, then the terms' cells) and
//                  forwards (later cells whose explanation names a lineage cell)
//   follow_strip   the followed number through the steps: "attn_scores 3.76 -> attn_scaled 0.94 -> ..."
//   panel_cell     where a full tensor index sits among a step's panels
#pragma once

#include <cstdint>
#include <vector>

#include "app/gui/display/display_model.h"
#include "core/explain_cell.h"

namespace attn::gui {

// How a cell of the lineage is related to the followed one.
enum class LineageRole : uint8_t {
    Same,    // the followed number itself, or it carried through a step that keeps it
             //   (scaled, masked, softmaxed, moved, repeated): one cell a step
    Source,  // a cell that went into it (the q row and k row behind a score)
    Feeds,   // a cell it goes into (the context row, the concat columns, the out row)
};

struct LineageCell {
    std::vector<int64_t> index;  // a full index into the step's tensor
    LineageRole role = LineageRole::Source;
};

// The lineage cells of one step.
struct LineageStep {
    StepId step = StepId::Input;
    std::vector<LineageCell> cells;
};

struct Lineage {
    CellAddress followed;
    std::vector<LineageStep> steps;  // only steps with lineage cells, in the trace's order
    // A later step had more cells than the forward walk reads (kMaxLineageScan): its
    // cells and those after it are left out rather than slowing the frame.
    bool cut_short = false;
    const LineageStep* find(StepId step) const;
};

// Largest step the forward walk explains cell by cell (each cell costs one explain_cell:
// a 128-token, 4-head score map is 65,536 of them, too many for a click to wait for).
inline constexpr int64_t kMaxLineageScan = 1 << 14;

// The lineage of `followed` (a step cell, or a weight or bias element); empty steps when
// the address names no cell of `trace`.
Lineage cell_lineage(const Trace& trace, const CellAddress& followed);

// One stop of the followed number: its value at a step that holds it (`same`), or, past
// the last such step, how many cells of a step it goes into.
struct FollowStop {
    StepId step = StepId::Input;
    bool same = true;
    float value = 0.0f;   // same: the trace's cell (value_at_cell)
    int64_t cells = 0;    // !same: the step's Feeds cells
};
// The stops in the trace's order: every step with a Same cell, then every step it feeds.
std::vector<FollowStop> follow_strip(const Trace& trace, const Lineage& lineage);

// Where a full index of step `sd`'s tensor is drawn: the panel and (row, col) in it; false
// when no panel shows it (another batch item, or a step not cut into panels yet).
struct PanelCellPos {
    int panel = -1, row = 0, col = 0;
};
bool panel_cell(const StepDisplay& sd, const std::vector<int64_t>& index, PanelCellPos& out);

}  // namespace attn::gui
