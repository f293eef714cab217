// AppState: the whole window's state, in parts with one header each, so a view can be
// given only the part it draws (read-only; its edits come back in Actions, and only the
// UiState is the views' own to write, see views/view_registry.h):
//   settings  what survives a restart (settings.h)
//   session   what the user edits: configuration, sentence, files (session.h)
//   results   the newest trace and its display model (results.h)
//   ui        playback, selection, panels, status line (ui_state.h)
//   jobs      the open dialog and "export all steps" (jobs.h)
//   compare   View > Compare: a second session B, its trace and A − B (compare.h)
//   tour      Help > Tour while it runs (tour.h)
// It owns no GL objects and never writes into a trace; a new trace arrives from the
// ComputeWorker through accept_result.
#pragma once

#include <string>

#include "app/gui/compute/compute_worker.h"
#include "app/gui/state/compare.h"
#include "app/gui/state/jobs.h"
#include "app/gui/state/results.h"
#include "app/gui/state/session.h"
#include "app/gui/state/settings.h"
#include "app/gui/state/tour.h"
#include "app/gui/state/ui_state.h"

namespace attn::gui {

struct AppState {
    UiSettings settings;
    Session session;
    Results results;
    UiState ui;
    Jobs jobs;
    CompareState compare;
    TourState tour;  // Help > Tour, while it runs (tour.h)
};

// The colour scale the View menu chose (saved in the settings).
ColourScale colour_scale_of(const UiSettings& settings);
// Takes the worker's newest result into the state (keeps the old trace on failure) and
// stays on the same step by name (or on ui.resume_step, once, after a restart).
void accept_result(AppState& state, ComputeResult result, double now);
// Copies what the window shows (sizes, mask, sentence, step...) into the settings to be saved.
void store_config_in_settings(AppState& state);
// The reverse, at start-up: the saved configuration and sentence become the session, through
// the same checks as typed input (follow_sentence, make_request's validation), and the saved
// step becomes ui.resume_step. A saved configuration that does not pass leaves the session
// as it was and returns a note for the status line ("" when it was restored).
Message restore_saved_session(AppState& state);

}  // namespace attn::gui
