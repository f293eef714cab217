// The inspector's body: one cell's explanation (core/explain_cell.h) drawn as text and
// tables, one drawing per CellRule. It renders what explain_cell returned and does no
// arithmetic of its own; every word comes from the catalogue (inspector.* keys).
#pragma once

#include <string>

#include "app/gui/edits/painted_mask.h"
#include "app/gui/state/results.h"
#include "core/explain_cell.h"

namespace attn::gui {

// Wrapped text that breaks lines only at spaces (ImGui's own wrapping splits "0.1756" after the point).
void inspector_text(const std::string& words);

// The explanation `e` of a cell of `step` (null for a weight or bias cell) of results.trace;
// `origins` tells a painted cell from the mask file's (view_inspector.h).
void draw_cell_explanation(const Results& results, const Step* step, const CellExplanation& e, const MaskOrigins& origins = {});

}  // namespace attn::gui
