// Under the inspector: a number field for a pinned cell of the `input` step. Typing a
// value and pressing Enter makes the shown item's rows the typed query matrix (as
// --query-values does), and everything downstream is recomputed; a refused text (not a
// number, nan, inf) is named right under the field and changes nothing.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/results.h"
#include "app/gui/state/session.h"
#include "app/gui/state/ui_state.h"

namespace attn::gui {

Actions draw_input_editor(const Session& session, const Results& results, UiState& ui, bool light_theme);

}  // namespace attn::gui
