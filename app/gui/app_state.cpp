#include "app/gui/app_state.h"

#include <algorithm>

namespace attn::gui {

std::vector<std::string> effective_tokens(const AppState& state) {
    std::vector<std::string> words = io::split_tokens(state.sentence);
    const int n = std::max(1, state.config.seq_len);
    std::vector<std::string> tokens;
    tokens.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        tokens.push_back(i < static_cast<int>(words.size()) ? words[static_cast<size_t>(i)]
                                                             : "t" + std::to_string(i));
    }
    return tokens;
}

void follow_sentence(AppState& state) {
    const auto words = io::split_tokens(state.sentence);
    if (!words.empty()) state.config.seq_len = std::clamp(static_cast<int>(words.size()), 1, 1024);
}

void init_from_problem(AppState& state, const io::Problem& problem) {
    state.config = problem.config;
    // -S, --kdim or --vdim on the command line imply separate key/value inputs.
    state.config.cross_attention = problem.config.is_cross();
    if (state.config.mask == MaskKind::Padding && !state.config.valid_lengths.empty()) {
        state.valid_length = state.config.valid_lengths.front();
    }
    std::string sentence;
    bool generated = true;
    for (size_t i = 0; i < problem.query_tokens.size(); ++i) {
        if (problem.query_tokens[i] != "t" + std::to_string(i)) generated = false;
        sentence += (i ? " " : "") + problem.query_tokens[i];
    }
    if (!problem.query_tokens.empty() && !generated) state.sentence = sentence;
}

std::optional<ComputeRequest> make_request(AppState& state) {
    AttentionConfig config = state.config;
    config.batch = std::max(1, config.batch);
    // The key/value sliders keep their values while cross-attention is off, but only
    // count when it is on (is_cross() also looks at S, kdim and vdim).
    if (!config.cross_attention) {
        config.kv_len = 0;
        config.kdim = 0;
        config.vdim = 0;
    }
    if (config.mask == MaskKind::Padding) {
        config.valid_lengths.assign(static_cast<size_t>(config.batch), std::clamp(state.valid_length, 1, config.S()));
    } else {
        config.valid_lengths.clear();
    }
    const Status valid = validate(config);
    if (!valid.ok()) {
        state.config_message = valid.error();
        return std::nullopt;
    }
    state.config_message.clear();
    ComputeRequest request;
    request.config = config;
    request.sources = state.sources;
    if (state.tokens_from_sentence && state.sources.query_path.empty()) {
        request.sources.tokens = effective_tokens(state);
    }
    request.batch_item = state.batch_item;
    return request;
}

void accept_result(AppState& state, ComputeResult result, double now) {
    if (!result.error.empty()) {
        state.compute_error = result.error;
        return;
    }
    state.compute_error.clear();
    std::string step_name;
    if (state.trace && state.playback.step() < static_cast<int>(state.trace->steps.size())) {
        step_name = state.trace->steps[static_cast<size_t>(state.playback.step())].name;
    }
    state.trace = std::move(result.trace);
    state.model = std::move(result.model);
    state.query_tokens = std::move(result.query_tokens);
    state.key_tokens = std::move(result.key_tokens);
    state.compute_ms = result.compute_ms;
    // Files decide some sizes (a weights file fixes E, a query file fixes B and L):
    // let the controls show what was really computed.
    if (!state.sources.weights_path.empty() || !state.sources.query_path.empty()) {
        const AttentionConfig& got = state.trace->config;
        state.config.hidden_dim = got.hidden_dim;
        state.config.seq_len = got.seq_len;
        state.config.batch = got.batch;
        state.config.bias = got.bias;
    }
    state.model_changed = true;
    state.last_latency_ms = (now - state.posted_time) * 1000.0;
    // Stay on the same step name if the new trace has it (sizes changed, lesson continues).
    state.playback.set_step_count(static_cast<int>(state.trace->steps.size()));
    const int same = step_name.empty() ? -1 : state.trace->index_of(step_name);
    if (same >= 0 && same != state.playback.step()) state.playback.set_position(same, 1.0f);
    if (state.canvas.pinned.valid()) state.canvas.pinned = CellRef{};
    if (state.canvas.enlarged_head >= state.trace->config.H()) state.canvas.enlarged_head = -1;
    state.canvas.focus_head = std::min(state.canvas.focus_head, std::max(0, state.trace->config.H() - 1));
}

void set_status(AppState& state, std::string message, double now) {
    state.status = std::move(message);
    state.status_time = now;
}

}  // namespace attn::gui
