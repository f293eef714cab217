#include "app/gui/window/compare_window.h"

#include "app/gui/state/compare_contrasts.h"
#include "app/gui/window/window_parts.h"

namespace attn::gui {
namespace {

void post_b_request(AppState& state, WindowParts& parts, double now) {
    std::optional<ComputeRequest> request = make_b_request(state);
    if (!request) return;
    state.compare.b_results.posted_generation = parts.compare_worker.post(std::move(*request));
    state.compare.b_results.posted_time = now;
}

// A request for a problem already built (a contrast's A or B), the step on screen first.
ComputeRequest prebuilt_request(const AppState& state, const io::Problem& problem, StepId step) {
    ComputeRequest request;
    request.prebuilt = std::make_shared<const io::Problem>(problem);
    request.batch_item = 0;
    request.focus_step = step;
    request.colour_scale = colour_scale_of(state.settings);
    return request;
}

// Sets A and B up as the contrast says and computes both; on failure compare mode shows why.
void choose_contrast(AppState& state, WindowParts& parts, const std::string& id, double now) {
    const Contrast* contrast = find_contrast(id);
    if (!contrast) return;
    const Result<ContrastSetup> setup = set_up_contrast(state, *contrast);
    if (!setup) return;
    state.results.posted_generation = parts.worker.post(prebuilt_request(state, setup.value().a, contrast->step));
    state.results.posted_time = now;
    CompareState& c = state.compare;
    c.b_results.posted_generation = parts.compare_worker.post(prebuilt_request(state, setup.value().b, contrast->step));
    c.b_results.posted_time = now;
}

}  // namespace

void apply_compare_actions(AppState& state, Actions& actions, WindowParts& parts, double now) {
    if (actions.toggle_compare) {
        if (state.compare.on) {
            if (stop_compare(state)) post_request(state, parts, now);
        } else {
            start_compare(state);
        }
    }
    if (!actions.compare_contrast.empty()) {
        choose_contrast(state, parts, actions.compare_contrast, now);
        return;
    }
    if (!state.compare.on) return;
    // A's batch item or layer changed: B follows.
    if (actions.config_changed && share_view_choices(state.session, state.compare.b)) actions.compare_b_changed = true;
    if (actions.compare_b_changed) post_b_request(state, parts, now);
}

void take_compare_news(AppState& state, WindowParts& parts, double now) {
    if (std::optional<ComputeResult> result = parts.compare_worker.take()) accept_b_result(state.compare, std::move(*result), now);
    if (std::optional<CompletedModel> done = parts.compare_worker.take_model()) adopt_b_model(state.compare, std::move(*done));
}

void finish_compare_models(const AppState& state, WindowParts& parts) {
    const std::shared_ptr<const DisplayModel>& b = state.compare.b_results.model;
    if (state.compare.on && b && !b->complete()) parts.compare_worker.finish_model();
}

}  // namespace attn::gui
