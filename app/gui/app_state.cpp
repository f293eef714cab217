#include "app/gui/app_state.h"

#include "app/gui/model_choice.h"

#include <algorithm>
#include <optional>


namespace attn::gui {

void store_config_in_settings(AppState& state) {
    UiSettings& s = state.settings;
    const AttentionConfig& c = state.session.config;
    s.sentence = state.session.tokens_from_sentence ? state.session.sentence_in_use : std::string();
    s.seq_len = c.seq_len;
    s.hidden_dim = c.hidden_dim;
    s.num_heads = c.num_heads;
    s.batch = c.batch;
    s.mask = static_cast<int>(c.mask);
    s.valid_length = valid_length_of(state.session, state.session.batch_item);
    s.dropout = c.dropout;
    s.bias = c.bias;
    s.variant = static_cast<int>(c.variant);
    s.seed = static_cast<int>(c.seed);
    s.mask_presets = to_string(c.mask_presets);
    s.window = c.window;
    s.mask_fill = to_string(c.mask_fill);
    s.scale = to_string(c.scale);
    s.mask_before_scale = c.mask_before_scale;
    s.rope = c.rope;
    s.rope_base = static_cast<float>(c.rope_base);
    s.rope_style = to_string(c.rope_style);
    s.position_offset = c.position_offset;
    s.num_kv_heads = c.num_kv_heads;
    s.input_dim = c.input_dim;
    s.no_qkv_bias = c.no_qkv_bias;
    s.no_out_bias = c.no_out_bias;
    s.no_out_proj = c.no_out_proj;
    s.add_bias_kv = c.add_bias_kv;
    s.add_zero_attn = c.add_zero_attn;
    s.average_weights = c.average_weights;
    s.dtype = to_string(c.dtype);
    s.recipe = c.recipe;
    s.init = to_string(c.init);
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
    state.results.trace = std::move(result.trace);
    state.results.model = std::move(result.model);
    state.results.query_tokens = std::move(result.query_tokens);
    state.results.key_tokens = std::move(result.key_tokens);
    state.results.compute_ms = result.compute_ms;
    // Files decide some sizes (a weights file fixes E, a query file fixes B and L):
    // let the controls show what was really computed.
    if (!state.session.sources.weights_path.empty() || !state.session.sources.query_path.empty()) {
        const AttentionConfig& got = state.results.trace->config;
        state.session.config.hidden_dim = got.hidden_dim;
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
    if (state.ui.canvas.pinned.valid()) state.ui.canvas.pinned = CellRef{};
    if (state.ui.canvas.enlarged_head >= state.results.trace->config.H()) state.ui.canvas.enlarged_head = -1;
    state.ui.canvas.focus_head = std::min(state.ui.canvas.focus_head, std::max(0, state.results.trace->config.H() - 1));
}

namespace {
// A setting's text parsed by core, or `fallback` (the reader already refused bad texts).
template <typename T>
T parsed_or(const Result<T>& parsed, T fallback) {
    return parsed.ok() ? parsed.value() : fallback;
}
}  // namespace

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
    AttentionConfig& c = restored.config;
    // The sliders may have moved after the sentence was typed: the saved sizes win.
    c.seq_len = s.seq_len;
    c.batch = s.batch;
    c.hidden_dim = s.hidden_dim;
    c.num_heads = s.num_heads;
    c.mask = static_cast<MaskKind>(s.mask);
    c.dropout = s.dropout;
    c.bias = s.bias;
    c.variant = static_cast<Variant>(s.variant);
    c.seed = static_cast<uint64_t>(s.seed);
    c.dropout_seed = c.seed;
    // The texts were checked by the settings reader; a value refused there kept its default.
    c.mask_presets = parsed_or(parse_mask_presets(s.mask_presets), MaskPresets{});
    c.window = s.window;
    c.mask_fill = parsed_or(parse_mask_fill(s.mask_fill), MaskFill{});
    c.scale = parsed_or(parse_scale(s.scale), ScaleChoice{});
    c.mask_before_scale = s.mask_before_scale;
    c.rope = s.rope;
    c.rope_base = s.rope_base;
    c.rope_style = parsed_or(parse_rope_style(s.rope_style), RopeStyle::Half);
    c.position_offset = s.position_offset;
    c.num_kv_heads = s.num_kv_heads;
    c.input_dim = s.input_dim;
    c.no_qkv_bias = s.no_qkv_bias;
    c.no_out_bias = s.no_out_bias;
    c.no_out_proj = s.no_out_proj;
    c.add_bias_kv = s.add_bias_kv;
    c.add_zero_attn = s.add_zero_attn;
    c.average_weights = s.average_weights;
    c.dtype = parsed_or(parse_dtype(s.dtype), DType::Float32);
    c.recipe = s.recipe;
    c.init = parsed_or(parse_init(s.init), InitKind::Attnviz);
    if (restored.valid_lengths.size() <= 1) restored.valid_lengths = {s.valid_length};
    if (!make_request(restored)) return Message("status.resume_refused", {{"why", restored.config_message}});
    state.session = std::move(restored);
    state.ui.resume_step = s.step;
    return Message();
}

}  // namespace attn::gui
