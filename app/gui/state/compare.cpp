#include "app/gui/state/compare.h"

#include "app/gui/state/app_state.h"

namespace attn::gui {

void start_compare(AppState& state) {
    CompareState& c = state.compare;
    c.on = true;
    c.editing_b = true;
    c.b = state.session;
    c.base = state.session;
    c.b_results = state.results;
    c.b_results.model_changed = true;  // B's textures are baked from its own cache
    c.made_from_a.reset();
    c.made_from_b.reset();
    c.contrast.clear();
    c.contrast_error = {};
    c.contrast_note = {};
    c.saturation.clear();
}

bool stop_compare(AppState& state) {
    // A random stand-in for a trained model (compare_contrasts.h) was only the contrast's
    // vehicle: A goes back to the model and the text typed for it.
    const bool restore = !state.compare.contrast_note.empty();
    if (restore) state.session = state.compare.base;
    state.compare = CompareState{};
    return restore;
}

bool controls_edit_b(const AppState& state) { return state.compare.on && state.compare.editing_b; }

int b_step_of(const AppState& state, int a_step) {
    const Step* a = state.results.step_at(a_step);
    if (!a || !state.compare.b_results.trace) return -1;
    return state.compare.b_results.trace->index_of(a->id);
}

void refresh_difference(AppState& state, int step) {
    CompareState& c = state.compare;
    const std::shared_ptr<const Trace>& a = state.results.trace;
    const std::shared_ptr<const Trace>& b = c.b_results.trace;
    if (!c.on || !a || !b || !state.results.model) return;
    const bool new_pair = a != c.made_from_a || b != c.made_from_b;
    if (new_pair) {
        c.difference = subtract_traces(*a, *b);
        c.magnitudes = step_magnitudes(*a, *b);
        c.made_from_a = a;
        c.made_from_b = b;
        c.difference_model.reset();
    }
    if (step < 0 || step >= static_cast<int>(a->steps.size())) return;
    if (c.difference_model && c.difference_model->steps[static_cast<size_t>(step)].built) return;
    // Only the step on screen (and what it reads) is built: stepping builds the next one.
    DisplayModel model = build_difference_model(*c.difference.trace, state.results.query_tokens, state.results.key_tokens,
                                                state.results.model->batch_item, state.results.model->max_extent, step,
                                                c.magnitudes);
    if (c.difference_model) {
        // Keep the steps built before: only the new one is added.
        for (size_t i = 0; i < model.steps.size(); ++i)
            if (!model.steps[i].built && c.difference_model->steps[i].built) model.steps[i] = c.difference_model->steps[i];
    }
    c.difference_model = std::make_shared<const DisplayModel>(std::move(model));
}

void accept_b_result(CompareState& compare, ComputeResult result, double now) {
    Results& b = compare.b_results;
    if (!result.error.empty()) {
        b.compute_error = result.error;
        return;
    }
    b.compute_error.clear();
    b.trace = std::move(result.trace);
    b.model = std::move(result.model);
    b.query_tokens = std::move(result.query_tokens);
    b.key_tokens = std::move(result.key_tokens);
    b.compute_ms = result.compute_ms;
    b.last_latency_ms = (now - b.posted_time) * 1000.0;
}

void adopt_b_model(CompareState& compare, CompletedModel done) {
    if (done.trace == compare.b_results.trace) compare.b_results.model = std::move(done.model);
}

std::optional<ComputeRequest> make_b_request(AppState& state) {
    Session& b = state.compare.b;
    b.batch_item = state.session.batch_item;
    std::optional<ComputeRequest> request = make_request(b);
    if (!request) return request;
    request->colour_scale = colour_scale_of(state.settings);
    if (const Step* shown = state.results.step_at(state.ui.playback.step())) request->focus_step = shown->id;
    return request;
}

namespace {

// The value of `cell` (a result cell of step `step`) in a trace and its display model.
bool value_of(const Trace& trace, const DisplayModel& model, int step, const CellRef& cell, float& out) {
    if (step < 0 || step >= static_cast<int>(model.steps.size()) || cell.part != CellRef::Part::Result) return false;
    const StepDisplay& sd = model.steps[static_cast<size_t>(step)];
    if (cell.panel < 0 || cell.panel >= static_cast<int>(sd.panels.size())) return false;
    const Panel& panel = sd.panels[static_cast<size_t>(cell.panel)];
    if (cell.row < 0 || cell.col < 0 || cell.row >= panel.rows || cell.col >= panel.cols) return false;
    out = cell_value(trace.steps[static_cast<size_t>(step)].tensor, panel, cell.row, cell.col);
    return true;
}

}  // namespace

ComparedCell compare_cell(const AppState& state, const CellRef& cell) {
    ComparedCell out;
    const CompareState& c = state.compare;
    if (!c.on || !cell.valid() || !state.results.trace || !state.results.model) return out;
    out.has_a = value_of(*state.results.trace, *state.results.model, cell.step, cell, out.a);
    if (c.b_results.trace && c.b_results.model)
        out.has_b = value_of(*c.b_results.trace, *c.b_results.model, b_step_of(state, cell.step), cell, out.b);
    const bool comparable = cell.step < static_cast<int>(c.difference.comparable.size()) &&
                            c.difference.comparable[static_cast<size_t>(cell.step)] == Comparable::Yes;
    // The panel of A's display model names the cell in the difference (same layout, same shape).
    if (comparable && c.difference.trace && out.has_a) {
        const Panel& panel = state.results.model->steps[static_cast<size_t>(cell.step)].panels[static_cast<size_t>(cell.panel)];
        out.difference = cell_value(c.difference.trace->steps[static_cast<size_t>(cell.step)].tensor, panel, cell.row, cell.col);
        out.has_difference = true;
    }
    return out;
}

bool share_view_choices(Session& edited, Session& other) {
    bool changed = false;
    if (other.batch_item != edited.batch_item) {
        other.batch_item = edited.batch_item;
        changed = true;
    }
    if (edited.model && other.model && other.model_layer != edited.model_layer) {
        other.model_layer = edited.model_layer;
        changed = true;
    }
    return changed;
}

}  // namespace attn::gui
