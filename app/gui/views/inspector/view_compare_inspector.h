// Compare mode's lines at the top of the inspector: the hovered (or pinned) cell in A,
// in B and A − B, read from the two traces (state/compare.h compare_cell).
#pragma once

#include "app/gui/state/app_state.h"

namespace attn::gui {

void draw_compare_inspector(const AppState& state, const CanvasUi& canvas);

}  // namespace attn::gui
