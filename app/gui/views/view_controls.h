// The controls panel: sentence, sizes, mask, dropout, bias, variant, seed, display
// options. Invalid combinations are explained with buttons to the nearest valid ones.
#pragma once

#include "app/gui/app_state.h"

namespace attn::gui {

struct ControlsResult {
    bool config_changed = false;  // post a new compute request
    bool scale_changed = false;   // rebuild fonts
    bool theme_changed = false;   // restyle and re-bake
};

ControlsResult draw_controls(AppState& state, bool computing);

}  // namespace attn::gui
