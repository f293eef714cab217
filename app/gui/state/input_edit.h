// Typing a number into a cell of the `input` step: the shown batch item's rows become the
// typed query matrix (--query-values in the window), so the whole trace downstream is
// recomputed from it. A number that cannot be an input (nan, inf) is refused with a
// message shown next to the cell; nothing changes then.
#pragma once

#include "app/gui/state/session.h"
#include "core/trace.h"

namespace attn::gui {

// True when the window lets the user type into `trace`'s input cells: the seeded random
// weights or a recipe (a trained model's input is its embeddings, a file's is the file's).
bool input_cells_editable(const Session& session, const Trace& trace);

// Sets input cell (row, col) of batch item `item` to `value`, as described above. Returns
// an empty message, or why not (the session is then unchanged).
// `row_words` (the rows' labels on screen) keep labelling the typed rows.
Message edit_input_cell(Session& session, const Trace& trace, int item, int row, int col, float value,
                        const std::vector<std::string>& row_words = {});

}  // namespace attn::gui
