#include "app/gui/state/input_edit.h"

#include <cmath>

namespace attn::gui {

bool input_cells_editable(const Session& session, const Trace& trace) {
    return !session.model && !trace.model.present() && session.sources.query_path.empty() &&
           trace.find(StepId::Input) != nullptr;
}

Message edit_input_cell(Session& session, const Trace& trace, int item, int row, int col, float value,
                        const std::vector<std::string>& row_words) {
    if (!std::isfinite(value)) return Message("inspector.edit_input.not_finite");
    const Step* input = trace.find(StepId::Input);
    if (input == nullptr || !input_cells_editable(session, trace)) return Message("inspector.edit_input.not_here");
    const Tensor& x = input->tensor;  // (B, L, d_in)
    if (x.rank() != 3 || item < 0 || item >= x.dim(0) || row < 0 || row >= x.dim(1) || col < 0 || col >= x.dim(2))
        return Message("inspector.edit_input.not_here");
    // Every item keeps its own rows; only the cell of the item on screen changes.
    const int64_t B = x.dim(0), L = x.dim(1), W = x.dim(2);
    Mat rows(B * L, W);  // (B x L, d_in): the items stacked
    for (int64_t b = 0; b < B; ++b)
        for (int64_t i = 0; i < L; ++i)
            for (int64_t d = 0; d < W; ++d) rows(b * L + i, d) = x.at({b, i, d});
    rows(item * L + row, col) = value;
    // A sentence in use sends its words itself; otherwise (a recipe's example, typed rows)
    // the labels on screen go along, so "journey" stays "journey" and not "t1".
    if (!session.tokens_from_sentence && static_cast<int64_t>(row_words.size()) == L) session.sources.tokens = row_words;
    session.sources.query_values = std::move(rows);
    session.sources.query_value_items = static_cast<int>(B);
    session.config_message.clear();
    return Message();
}

}  // namespace attn::gui
