// The inspector: the hovered or pinned cell's indices and value, and where it came
// from (the dot product of q_i and k_j, the row's exponentials, ...), with numbers.
#pragma once

#include "app/gui/app_state.h"

namespace attn::gui {

void draw_inspector(const AppState& state);

}  // namespace attn::gui
