// Compare mode's menus: View > Compare (V) and the Compare menu of ready contrasts, each
// row with its sentence on what to look for as a tooltip (state/compare_contrasts.h).
// Drawn after the main menu into the same menu bar (ImGui appends to a menu begun twice).
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/compare.h"

namespace attn::gui {

Actions draw_compare_menu(const CompareState& compare);
// The A/B switch at the top of the controls in compare mode: which side the controls edit.
Actions draw_compare_switch(const CompareState& compare);
// What the controls returned while they edited B, made B's: the session edit and the
// recompute go to B (the files and settings they may have changed stay as they are).
Actions as_b_edit(Actions edits);

}  // namespace attn::gui
