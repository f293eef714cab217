// The controls panel: sentence, sizes, mask, dropout, bias, variant, seed, display
// options. Invalid combinations are explained with buttons to the nearest valid ones.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/results.h"
#include "app/gui/state/session.h"
#include "app/gui/state/settings.h"
#include "app/gui/state/ui_state.h"

namespace attn::gui {

// The controls of `session` and of the display options in `settings` and `ui`; `results`
// gives the trace's size and timings. An edited session comes back as session_edit
// (with config_changed when it needs a new trace), edited settings as settings_edit.
// The configuration the controls show: with a trained model, the one on the canvas (the
// model's run: its L, mask and sizes), never the random weights' kept for later.
const AttentionConfig& shown_config(const Session& session, const Results& results);

Actions draw_controls(const Session& session, const Results& results, UiState& ui, const UiSettings& settings,
                      bool computing);
// The whole panel: the controls in a scrolling child, the presentation button below.
Actions draw_controls_panel(const Session& session, const Results& results, UiState& ui, const UiSettings& settings,
                            bool computing);

}  // namespace attn::gui
