// Compare mode (View > Compare): the session on screen is A; B is a second session with
// its own trace, and the canvas shows A, B and A − B for the step on screen. The
// controls edit B (or A: the switch at the top of the controls); stepping, the head, the
// batch item and the layer move both. Each trace is computed only when its own
// configuration changes; the difference is redone when either trace is new.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/gui/display/compare_difference.h"
#include "app/gui/state/results.h"
#include "app/gui/state/session.h"
#include "app/gui/state/ui_state.h"

namespace attn::gui {

struct AppState;

// Scaled against unscaled attention as d_h grows: the mean over rows of each row's
// largest weight (1 would be one key taking everything), the compare contrast "scale".
struct SaturationRow {
    int head_dim = 0;
    float scaled = 0, unscaled = 0;
};

struct CompareState {
    bool on = false;
    bool editing_b = true;   // the A/B switch: the controls edit B, else A
    Session b;
    Results b_results;
    // A as it was when compare mode started: the ready contrasts build on it, so choosing
    // one after another never piles one contrast's changes onto the next.
    Session base;
    // A − B for the traces it was made from (redone when either changes).
    TraceDifference difference;
    std::shared_ptr<const DisplayModel> difference_model;
    std::shared_ptr<const Trace> made_from_a, made_from_b;
    std::vector<float> magnitudes;  // per step of A: the largest |value| in A or B (rounding's yardstick)
    std::string contrast;    // the ready contrast chosen last (compare_contrasts.h), "" for none
    Message contrast_error;  // why the last contrast could not be set up
    Message contrast_note;   // how it was set up instead (a trained model's stand-in), else empty
    std::vector<SaturationRow> saturation;  // filled by the "scale" contrast
};

// Turns compare mode on: B starts as a copy of A (same trace, so A − B is 0 everywhere
// until B is edited) and the controls edit B.
void start_compare(AppState& state);
// Turns compare mode off; A stays as the last contrast set it, except a random stand-in for
// a trained model, which goes back to that model. Returns true when A changed (recompute it).
bool stop_compare(AppState& state);
// The session the controls edit now: B in compare mode with the switch on B, else A.
bool controls_edit_b(const AppState& state);
// Brings the difference up to date with both traces and builds its step `step` (an index
// of A's trace) if it is not built yet. Cheap when nothing changed.
void refresh_difference(AppState& state, int step);
// Step `a_step` of A's trace in B's trace (by name), -1 when B does not record it.
int b_step_of(const AppState& state, int a_step);
// Takes the compare worker's newest result as B's (keeps B's old trace on failure).
void accept_b_result(CompareState& compare, ComputeResult result, double now);
// The compare worker's completed display model of B's trace.
void adopt_b_model(CompareState& compare, CompletedModel done);
// What B computes: B's session as a request, with the batch item and layer A shows.
std::optional<ComputeRequest> make_b_request(AppState& state);
// One cell of the step on screen in A, in B and in A − B, read from the traces' tensors
// (what the inspector shows in compare mode). A part is absent (has_...) when that trace
// does not have the cell (B lacks the step or its shape differs).
struct ComparedCell {
    bool has_a = false, has_b = false, has_difference = false;
    float a = 0, b = 0, difference = 0;
};
ComparedCell compare_cell(const AppState& state, const CellRef& cell);

// After the controls edited one side: the batch item and layer it chose go to the other
// side too (they move both). Returns true when the other side changed (recompute it).
bool share_view_choices(Session& edited, Session& other);

}  // namespace attn::gui
