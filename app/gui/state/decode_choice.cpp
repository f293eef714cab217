#include "app/gui/state/decode_choice.h"

#include <exception>
#include <new>

namespace attn::gui {

Message show_decode_step(AppState& state, int step, double now) {
    const std::shared_ptr<DecodeRun> run = state.results.decode;
    if (!run) return Message();
    try {
        Result<int> made = decode_up_to(*run, step);
        if (!made) return made.message();
        state.session.decode_step = made.value();
        const int batch_item = state.results.model ? state.results.model->batch_item : 0;
        const int max_extent = state.results.model ? state.results.model->max_extent : 512;
        // Only the step on screen is built now; the worker completes the rest (complete_later).
        const Step* shown = state.results.step_at(state.ui.playback.step());
        ComputeResult result = decode_step_result(run, made.value(), batch_item, max_extent, colour_scale_of(state.settings),
                                                  shown ? std::optional<StepId>(shown->id) : std::nullopt);
        state.results.posted_time = now;  // latency of this step: made and shown at once
        accept_result(state, std::move(result), now);
    } catch (const std::bad_alloc&) {
        return Message("canvas.out_of_memory");
    } catch (const std::exception& e) {
        return Message("canvas.computation_failed", {{"reason", e.what()}});
    }
    return Message();
}

}  // namespace attn::gui
