// The model picker: "random (untrained)" or a trained example model, its layer and its
// card (what each head learned, measured), at the top of the controls; the same choice
// as a Model menu in the menu bar. A choice is made on a copy of the Session (through
// model_choice.h) and handed back as Actions::session_edit.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/session.h"
#include "app/gui/state/ui_state.h"

namespace attn::gui {

// The picker, layer choice, notes and card in the controls column.
Actions draw_model_picker(const Session& session, bool light_theme);
// The card of the session's model (nothing for the random weights): description, sizes,
// what each head of the shown layer learned with its measured figure, training figures.
// Beside each claim, a button puts the sentence that shows it into `session` (the
// controls' edited copy) and asks `ui` for the claim's head and its attention weights once
// the new trace arrives; returns true when it was pressed (the session then needs a trace).
bool draw_model_card(Session& session, UiState& ui);
// The Model menu's items (inside an open menu).
Actions draw_model_menu_items(const Session& session);
// Why the size controls are fixed (tooltip on the disabled sliders); valid until the next call.
const char* fixed_sizes_reason();

}  // namespace attn::gui
