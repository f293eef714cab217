#include "app/gui/state/app_state.h"

#include "app/gui/state/follow_state.h"
#include "app/gui/state/lesson_apply.h"
#include "app/gui/state/model_choice.h"

#include <algorithm>
#include <optional>


namespace attn::gui {

void store_config_in_settings(AppState& state) {
    UiSettings& s = state.settings;
    const AttentionConfig& c = state.session.config;
    s.sentence = state.session.tokens_from_sentence ? state.session.sentence_in_use : std::string();
    copy_saved_fields(c, s.config);
    s.valid_length = valid_length_of(state.session, state.session.batch_item);
    const Step* shown = state.results.step_at(state.ui.playback.step());
    s.step = shown ? shown->name() : state.ui.resume_step;
    s.model = state.session.model ? state.session.model->spec.name : std::string();
    s.model_layer = state.session.model_layer;
}

ColourScale colour_scale_of(const UiSettings& settings) {
    ColourScale scale;
    scale.stretch_probabilities = settings.stretch_probabilities;
    scale.one_scale_across_steps = settings.one_colour_scale;
    scale.difference_from_float32 = settings.difference_from_float32;
    return scale;
}

void accept_result(AppState& state, ComputeResult result, double now) {
    if (!result.error.empty()) {
        state.results.compute_error = result.error;
        return;
    }
    state.results.compute_error.clear();
    // The step to stay on: the one restored from the settings (once), else the one on screen.
    std::optional<StepId> shown_step = parse_step_name(state.ui.resume_step);
    state.ui.resume_step.clear();
    if (const Step* shown = state.results.step_at(state.ui.playback.step()); shown && !shown_step) shown_step = shown->id;
    // A pinned cell stays pinned when its step comes back with the same shape (a value was
    // typed into it, a seed changed): the user is still looking at that cell.
    const Step* pinned_step = state.ui.canvas.pinned.valid() ? state.results.step_at(state.ui.canvas.pinned.step) : nullptr;
    const std::optional<StepId> pinned_id = pinned_step ? std::optional<StepId>(pinned_step->id) : std::nullopt;
    const std::vector<int64_t> pinned_shape = pinned_step ? pinned_step->tensor.shape() : std::vector<int64_t>{};
    const CellKeep followed = cell_keep(state.results, state.ui.canvas.follow.cell);  // the same rule (follow_state.h)
    state.results.trace = std::move(result.trace);
    state.results.model = std::move(result.model);
    state.results.query_tokens = std::move(result.query_tokens);
    state.results.key_tokens = std::move(result.key_tokens);
    state.results.overview = std::move(result.overview);
    state.results.compute_ms = result.compute_ms;
    state.results.decode = std::move(result.decode);
    state.results.decode_step = result.decode_step;
    state.results.decode_rows = std::move(result.decode_rows);
    // Files decide some sizes (a weights file fixes E, a query file fixes B and L):
    // let the controls show what was really computed.
    if (!state.session.sources.weights_path.empty() || !state.session.sources.query_path.empty() ||
        state.session.sources.query_values.size() > 0) {
        const AttentionConfig& got = state.results.trace->config;
        state.session.config.hidden_dim = got.hidden_dim;
        state.session.config.input_dim = got.input_dim;
        state.session.config.seq_len = got.seq_len;
        state.session.config.batch = got.batch;
        state.session.config.bias = got.bias;
    }
    state.results.model_changed = true;
    state.results.last_latency_ms = (now - state.results.posted_time) * 1000.0;
    // Stay on the same step if the new trace has it (sizes changed, lesson continues).
    state.ui.playback.set_step_count(static_cast<int>(state.results.trace->steps.size()));
    const int same = shown_step ? state.results.trace->index_of(*shown_step) : -1;
    if (same >= 0 && same != state.ui.playback.step()) state.ui.playback.set_position(same, 1.0f);
    const Step* repinned = pinned_id ? state.results.step_at(state.ui.canvas.pinned.step) : nullptr;
    const bool keep_pin = repinned && repinned->id == *pinned_id && repinned->tensor.shape() == pinned_shape;
    if (state.ui.canvas.pinned.valid() && !keep_pin) state.ui.canvas.pinned = CellRef{};
    if (!followed.kept_in(state.results)) state.ui.canvas.follow.cell = CellRef{};
    if (state.ui.canvas.enlarged_head >= state.results.trace->config.H()) state.ui.canvas.enlarged_head = -1;
    state.ui.canvas.focus_head = std::min(state.ui.canvas.focus_head, std::max(0, state.results.trace->config.H() - 1));
    show_pending_slide(state);  // a lesson slide's step, moment, head and cells, once its trace is in
}

Message restore_saved_session(AppState& state) {
    const UiSettings& s = state.settings;
    Session restored;
    if (!s.model.empty()) {
        // A trained model: its name, layer and sentence are the whole lesson.
        const Message error = choose_model(restored, s.model);
        if (!error.empty()) return Message("status.resume_no_model", {{"error", error}});
        restored.sentence = s.sentence;
        follow_model_sentence(restored);  // a sentence it refuses leaves the card's example, with the reason
        choose_layer(restored, s.model_layer);
        restored.model_note.clear();
        state.session = std::move(restored);
        state.ui.resume_step = s.step;
        return Message();
    }
    if (s.sentence.empty()) {
        restored.sentence.clear();
        restored.tokens_from_sentence = false;
    } else {
        restored.sentence = s.sentence;
        // Several sentences also set B, L and their valid lengths, as when typed.
        if (!follow_sentence(restored)) return Message("status.resume_bad_sentence");
    }
    // The sliders may have moved after the sentence was typed: the saved sizes win.
    copy_saved_fields(s.config, restored.config);
    restored.config.dropout_seed = restored.config.seed;
    if (restored.valid_lengths.size() <= 1) restored.valid_lengths = {s.valid_length};
    if (!make_request(restored)) return Message("status.resume_refused", {{"why", restored.config_message}});
    state.session = std::move(restored);
    state.ui.resume_step = s.step;
    return Message();
}

}  // namespace attn::gui
