// The followed cell on the window's state: Follow in the inspector or on a canvas cell's
// context menu, or a slide's "followed". Its lineage (display/follow.h) is made once per
// cell and trace, when the canvas first draws them, and kept until either changes.
#pragma once

#include <memory>
#include <optional>
#include <vector>

#include "app/gui/display/follow.h"
#include "app/gui/state/results.h"
#include "app/gui/state/ui_state.h"

namespace attn::gui {

// The core's address of the cell `ref` points at: a result cell, or a cell of a
// projection's X, W^T or b (the W^T column is the output feature, its row the input one).
// False when `ref` names no cell of the results.
bool address_of(const Results& results, const CellRef& ref, CellAddress& out);

// A cell's step as it was before a new trace: a followed cell stays followed when its step
// comes back at the same place with the same shape (a value typed, a seed changed), as a
// pinned cell stays pinned; else it would name another step's cell.
struct CellKeep {
    int step = -1;
    std::optional<StepId> id;
    std::vector<int64_t> shape;
    bool kept_in(const Results& results) const;
};
CellKeep cell_keep(const Results& results, const CellRef& cell);

// Makes `follow.lineage` the lineage of `follow.cell` in the results' trace (null when
// nothing is followed or the cell is not in this trace). Cheap when nothing changed.
void refresh_follow(FollowUi& follow, const Results& results);

}  // namespace attn::gui
