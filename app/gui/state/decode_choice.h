// The token strip's choice (views/panels/view_token_strip.h): which decode step of the
// generation on screen to show. Steps not made yet are made here, one row each against
// the kept KV cache (decode_run.h), never the prefill again.
#pragma once

#include "app/gui/state/app_state.h"
#include "core/message.h"

namespace attn::gui {

// Shows decode step `step` (0 the prefill, k the row P + k - 1; clamped) of
// state.results.decode through accept_result, and keeps the choice in the session so a
// recomputed trace stays on it. Its display model holds the step on screen (and what it
// reads): the caller hands it to the worker to complete (ComputeWorker::complete_later).
// Returns why it could not (empty when shown, or when there is no generation on screen).
Message show_decode_step(AppState& state, int step, double now);

}  // namespace attn::gui
