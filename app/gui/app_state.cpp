#include "app/gui/app_state.h"

#include <algorithm>
#include <optional>

#include "app/text/languages.h"

namespace attn::gui {

namespace {
// The start of the note shown while B or L were moved away from the typed sentences
// (its text up to the first parameter), so the note can be recognised and cleared.
std::string sentences_mismatch_start() {
    const std::string pattern = text::tr("controls.sentences_mismatch");
    return pattern.substr(0, pattern.find('{'));
}
}  // namespace

std::vector<std::string> effective_tokens(const AppState& state) {
    const auto sentences = io::split_sentences(state.sentence_in_use);
    std::vector<std::string> words = sentences.empty() ? std::vector<std::string>{} : sentences.front();
    const int n = std::max(1, state.config.seq_len);
    std::vector<std::string> tokens;
    tokens.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        tokens.push_back(i < static_cast<int>(words.size()) ? words[static_cast<size_t>(i)]
                                                             : "t" + std::to_string(i));
    }
    return tokens;
}

bool follow_sentence(AppState& state) {
    const auto sentences = io::split_sentences(state.sentence);
    for (size_t i = 0; i < sentences.size(); ++i) {
        if (!sentences[i].empty()) continue;
        state.sentence_message = sentences.size() == 1 ? std::string(text::tr("controls.sentence.empty"))
                                                       : text::trf("controls.sentence.no_words", {{"sentence", i + 1}});
        return false;
    }
    if (sentences.size() > 8) {
        state.sentence_message = text::trf("controls.sentence.too_many", {{"max", 8}});
        return false;
    }
    state.sentence_message.clear();
    state.sentence_in_use = state.sentence;
    state.tokens_from_sentence = true;
    size_t longest = 0;
    for (const auto& words : sentences) longest = std::max(longest, words.size());
    state.config.seq_len = std::clamp(static_cast<int>(longest), 1, 1024);
    if (sentences.size() > 1) {
        AttentionConfig& c = state.config;
        c.batch = static_cast<int>(sentences.size());
        // The padding mask hides the pads, which are keys only in self-attention.
        bool unequal = false;
        for (const auto& words : sentences) unequal |= words.size() != longest;
        if (!c.cross_attention) {
            state.valid_lengths.clear();
            for (const auto& words : sentences) state.valid_lengths.push_back(static_cast<int>(words.size()));
            if (unequal && c.mask == MaskKind::None) c.mask = MaskKind::Padding;
        }
    }
    return true;
}

int valid_length_of(const AppState& state, int b) {
    if (state.valid_lengths.empty()) return 1;
    return state.valid_lengths[static_cast<size_t>(std::clamp(b, 0, static_cast<int>(state.valid_lengths.size()) - 1))];
}

void store_config_in_settings(AppState& state) {
    UiSettings& s = state.settings;
    const AttentionConfig& c = state.config;
    s.sentence = state.tokens_from_sentence ? state.sentence_in_use : std::string();
    s.seq_len = c.seq_len;
    s.hidden_dim = c.hidden_dim;
    s.num_heads = c.num_heads;
    s.batch = c.batch;
    s.mask = static_cast<int>(c.mask);
    s.valid_length = valid_length_of(state, state.batch_item);
    s.dropout = c.dropout;
    s.bias = c.bias;
    s.variant = static_cast<int>(c.variant);
    s.seed = static_cast<int>(c.seed);
}

void init_from_problem(AppState& state, const io::Problem& problem) {
    state.config = problem.config;
    // -S, --kdim or --vdim on the command line imply separate key/value inputs.
    state.config.cross_attention = problem.config.is_cross();
    // Every item's own length, exactly as given (one length means the same for all).
    if (state.config.mask == MaskKind::Padding && !state.config.valid_lengths.empty()) {
        state.valid_lengths = state.config.valid_lengths;
    }
    // The box shows the sentence(s) the rows came from; generated rows t0.. have none.
    bool generated = true;
    for (size_t i = 0; i < problem.query_tokens.size(); ++i)
        if (problem.query_tokens[i] != "t" + std::to_string(i)) generated = false;
    std::string sentence;
    if (!problem.item_tokens.empty()) {
        generated = false;
        for (size_t b = 0; b < problem.item_tokens.size(); ++b) {
            sentence += b ? " | " : "";
            bool first = true;
            for (const std::string& word : problem.item_tokens[b]) {
                if (word == io::kPadToken) break;
                sentence += (first ? "" : " ") + word;
                first = false;
            }
        }
    } else {
        for (size_t i = 0; i < problem.query_tokens.size(); ++i) sentence += (i ? " " : "") + problem.query_tokens[i];
    }
    if (generated) {
        state.sentence.clear();
        state.tokens_from_sentence = false;
    } else {
        state.sentence = sentence;
        state.sentence_in_use = sentence;
        state.tokens_from_sentence = true;
    }
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
        config.valid_lengths.clear();
        for (int b = 0; b < config.batch; ++b)
            config.valid_lengths.push_back(std::clamp(valid_length_of(state, b), 1, config.S()));
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
    request.batch_item = state.batch_item;
    if (state.tokens_from_sentence && state.sources.query_path.empty()) {
        auto sentences = io::split_sentences(state.sentence_in_use);
        if (sentences.size() > 1) {
            // One sentence per item while B and L still match them; otherwise the first one.
            size_t longest = 0;
            for (const auto& words : sentences) longest = std::max(longest, words.size());
            if (static_cast<int>(sentences.size()) == config.batch && static_cast<int>(longest) == config.seq_len) {
                if (state.sentence_message.rfind(sentences_mismatch_start(), 0) == 0) state.sentence_message.clear();
                request.sources.sentences = std::move(sentences);
                return request;
            }
            state.sentence_message = text::trf("controls.sentences_mismatch", {{"count", sentences.size()}});

        }
        request.sources.tokens = effective_tokens(state);
    }
    return request;
}

void accept_result(AppState& state, ComputeResult result, double now) {
    if (!result.error.empty()) {
        state.compute_error = result.error;
        return;
    }
    state.compute_error.clear();
    std::optional<StepId> shown_step;
    if (state.trace && state.playback.step() < static_cast<int>(state.trace->steps.size())) {
        shown_step = state.trace->steps[static_cast<size_t>(state.playback.step())].id;
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
    // Stay on the same step if the new trace has it (sizes changed, lesson continues).
    state.playback.set_step_count(static_cast<int>(state.trace->steps.size()));
    const int same = shown_step ? state.trace->index_of(*shown_step) : -1;
    if (same >= 0 && same != state.playback.step()) state.playback.set_position(same, 1.0f);
    if (state.canvas.pinned.valid()) state.canvas.pinned = CellRef{};
    if (state.canvas.enlarged_head >= state.trace->config.H()) state.canvas.enlarged_head = -1;
    state.canvas.focus_head = std::min(state.canvas.focus_head, std::max(0, state.trace->config.H() - 1));
}

int operand_head(const CanvasUi& ui, const StepDisplay& sd, const CellRef& active) {
    if (active.valid() && active.step == sd.step && active.panel < static_cast<int>(sd.panels.size())) {
        const int head = sd.panels[static_cast<size_t>(active.panel)].head;
        if (head >= 0) return head;
    }
    return ui.chosen_head();
}

void set_status(AppState& state, std::string message, double now) {
    state.status = std::move(message);
    state.status_time = now;
}

}  // namespace attn::gui
