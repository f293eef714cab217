#include "app/gui/state/session.h"

#include "app/gui/state/model_choice.h"

#include "core/model/tokenizer.h"
#include "core/repeat_kv.h"
#include "core/text_split.h"

#include <algorithm>


namespace attn::gui {

std::vector<std::string> effective_tokens(const Session& session) {
    const auto sentences = io::split_sentences(session.sentence_in_use);
    std::vector<std::string> words = sentences.empty() ? std::vector<std::string>{} : sentences.front();
    const int n = std::max(1, session.config.seq_len);
    std::vector<std::string> tokens;
    tokens.reserve(static_cast<size_t>(n));
    for (int i = 0; i < n; ++i) {
        tokens.push_back(i < static_cast<int>(words.size()) ? words[static_cast<size_t>(i)]
                                                             : "t" + std::to_string(i));
    }
    return tokens;
}

bool follow_sentence(Session& session) {
    if (const std::optional<size_t> bad = first_invalid_utf8(session.sentence)) {
        session.sentence_message = Message("error.text.invalid_utf8", {{"byte", *bad}});
        return false;
    }
    const auto sentences = io::split_sentences(session.sentence);
    for (size_t i = 0; i < sentences.size(); ++i) {
        if (!sentences[i].empty()) continue;
        session.sentence_message = sentences.size() == 1 ? Message("controls.sentence.empty")
                                                         : Message("controls.sentence.no_words", {{"sentence", i + 1}});
        return false;
    }
    if (sentences.size() > 8) {
        session.sentence_message = Message("controls.sentence.too_many", {{"max", 8}});
        return false;
    }
    session.sentence_message.clear();
    session.sentence_in_use = session.sentence;
    session.tokens_from_sentence = true;
    session.sources.query_values = Mat();  // typed words replace typed (or cell-edited) numbers
    session.sources.query_value_items = 1;
    session.sources.tokens.clear();        // and the labels those numbers kept
    size_t longest = 0;
    for (const auto& words : sentences) longest = std::max(longest, words.size());
    session.config.seq_len = std::clamp(static_cast<int>(longest), 1, 1024);
    if (sentences.size() > 1) {
        AttentionConfig& c = session.config;
        c.batch = static_cast<int>(sentences.size());
        // The padding mask hides the pads, which are keys only in self-attention.
        bool unequal = false;
        for (const auto& words : sentences) unequal |= words.size() != longest;
        if (!c.cross_attention) {
            session.valid_lengths.clear();
            for (const auto& words : sentences) session.valid_lengths.push_back(static_cast<int>(words.size()));
            // Padding joins the presets already chosen (a causal decoder with a padded
            // batch), unless one that reads the lengths is there already.
            if (unequal && !c.mask_spec().presets.reads_valid_lengths()) {
                MaskPresets presets = c.mask_spec().presets;
                presets.padding = true;
                set_mask_presets(c, presets);
            }
        }
    }
    return true;
}

int valid_length_of(const Session& session, int b) {
    if (session.valid_lengths.empty()) return 1;
    return session.valid_lengths[static_cast<size_t>(std::clamp(b, 0, static_cast<int>(session.valid_lengths.size()) - 1))];
}


void init_from_problem(Session& session, const io::Problem& problem) {
    session.config = problem.config;
    session.sources = problem.sources;  // files and typed values outlive the first recompute
    // -S, --kdim or --vdim on the command line imply separate key/value inputs.
    session.config.cross_attention = problem.config.is_cross();
    // Every item's own length, exactly as given (one length means the same for all).
    if (session.config.mask_spec().presets.reads_valid_lengths() && !session.config.valid_lengths.empty()) {
        session.valid_lengths = session.config.valid_lengths;
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
    // A recipe's example words sent back as the sentence keep the example's numbers:
    // build_problem recognises them (app/io/problem.cpp), so no special case here.
    if (generated) {
        session.sentence.clear();
        session.tokens_from_sentence = false;
    } else {
        session.sentence = sentence;
        session.sentence_in_use = sentence;
        session.tokens_from_sentence = true;
    }
    session.model = problem.model;
    session.model_layer = problem.model_layer;
    if (problem.model) {
        // The box shows the words the model read (without the <bos> it adds itself).
        std::string words;
        const std::vector<std::string>& tokens = problem.model_tokens.tokens;
        for (size_t i = problem.model->spec.prepend_bos ? 1 : 0; i < tokens.size(); ++i)
            words += (words.empty() ? "" : " ") + tokens[i];
        session.sentence = words;
        session.sentence_in_use = words;
        session.tokens_from_sentence = true;
        session.unknown_note = unknown_words_note(problem.model_tokens.unknown_words);
        session.generating = problem.generate > 0;  // --generate N: the window opens on that generation
        if (session.generating) {
            session.generate_tokens = problem.generate;
            session.generate_tokens_chosen = true;
            session.sampling = problem.sampling;
        }
        fit_default_new_tokens(session);
    }
}

AttentionConfig request_config(const Session& session) {
    AttentionConfig config = session.config;
    config.batch = std::max(1, config.batch);
    // The key/value sliders keep their values while cross-attention is off, but only
    // count when it is on (is_cross() also looks at S, kdim and vdim).
    if (!config.cross_attention) {
        config.kv_len = 0;
        config.kdim = 0;
        config.vdim = 0;
    }
    // Padding from the box, the controls or presets given on the command line (left
    // padding too). 0 is a length: every key of the item is masked.
    config.valid_lengths.clear();
    if (config.mask_spec().presets.reads_valid_lengths()) {
        for (int b = 0; b < config.batch; ++b)
            config.valid_lengths.push_back(std::clamp(valid_length_of(session, b), 0, config.S()));
    }
    // Cells painted on the canvas join the mask as a boolean mask file (painted_mask.h).
    merge_painted_mask(config, session.painted_mask);
    return config;
}

Message refusal_of(const Session& session, const std::function<void(AttentionConfig&)>& edit) {
    Session edited = session;
    edit(edited.config);
    const Status after = validate(request_config(edited));
    if (after.ok()) return Message();
    const Status before = validate(request_config(session));
    if (!before.ok() && before.message() == after.message()) return Message();
    return after.message();
}

Message open_mask_file(Session& session, const std::string& path) {
    Session opened = session;
    if (Status read = io::read_mask_file(opened.config, path); !read) return read.message();
    opened.sources.mask_path = path;
    // The file's own fault is refused now, not when the painted cells are cleared; another
    // complaint (a size the user is still typing) is the controls' to show.
    if (Status valid = validate(request_config(opened)); !valid && io::is_mask_file_error(valid.message()))
        return io::naming_mask_file(valid.message(), path);
    session = std::move(opened);
    return Message();
}

void drop_mask_file(Session& session, bool only_opened) {
    AttentionConfig& c = session.config;
    const bool opened = !c.mask_file.empty() && !session.sources.mask_path.empty() && c.mask_file_path == session.sources.mask_path;
    if (only_opened && !opened) return;
    c.mask_file = Tensor();
    c.mask_file_is_boolean = false;
    c.mask_file_path.clear();
    session.sources.mask_path.clear();
}

void set_mask_presets(AttentionConfig& config, const MaskPresets& presets) {
    config.mask = MaskKind::None;
    config.mask_presets = presets;
    const MaskPresets only_causal{true, false, false, false}, only_padding{false, true, false, false};
    const auto same = [](const MaskPresets& a, const MaskPresets& b) {
        return a.causal == b.causal && a.padding == b.padding && a.left_padding == b.left_padding && a.window == b.window;
    };
    if (same(presets, only_causal) || same(presets, only_padding)) {
        config.mask = presets.causal ? MaskKind::Causal : MaskKind::Padding;
        config.mask_presets = MaskPresets{};
    }
}

bool snap_options_to_valid(Session& session) {
    AttentionConfig& c = session.config;
    bool moved = false;
    // num_kv_heads must divide num_heads: the nearest divisor at or below it.
    if (c.num_kv_heads > 0 && c.num_heads > 0 && !check_kv_heads(c.num_heads, c.num_kv_heads).ok()) {
        const std::vector<int> near = nearest_valid_heads(c.num_heads, c.num_kv_heads);
        const int to = near.empty() ? c.num_heads : near.front();
        session.option_note = Message("controls.snap.kv_heads", {{"from", c.num_kv_heads}, {"heads", c.num_heads}, {"to", to}});
        c.num_kv_heads = to == c.num_heads ? 0 : to;
        moved = true;
    }
    // Then the choices the core refuses together with a size or input change, when
    // dropping that choice alone makes the configuration run again.
    struct Fallback {
        bool applies;
        void (*apply)(AttentionConfig&);
        const char* note;
    };
    const Fallback fallbacks[] = {
        {c.variant != Variant::Split, [](AttentionConfig& x) { x.variant = Variant::Split; }, "controls.snap.split"},
        {c.rope, [](AttentionConfig& x) { x.rope = false; }, "controls.snap.rope_off"},
    };
    for (const Fallback& f : fallbacks) {
        if (!f.applies) continue;
        const Status now = validate(request_config(session));
        if (now.ok()) break;
        Session fixed = session;
        f.apply(fixed.config);
        if (!validate(request_config(fixed)).ok()) continue;
        session.option_note = Message(f.note, {{"why", now.message()}});
        f.apply(c);
        moved = true;
    }
    return moved;
}

std::optional<ComputeRequest> make_request(Session& session) {
    if (session.model) {
        // The model fixes sizes, mask and weights; only the sentence and layer vary.
        session.config_message.clear();
        ComputeRequest request;
        request.model = session.model;
        request.model_layer = session.model_layer;
        request.model_sentence = session.sentence_in_use;
        if (session.generating) {
            // Shown in the Generate section (views/controls/view_generate.h); nothing computed.
            if (Message why = generation_refusal(session); !why.empty()) {
                session.config_message = why;
                return std::nullopt;
            }
            request.generate = session.generate_tokens;
            request.sampling = session.sampling;
            request.decode_step = session.decode_step;
        }
        return request;
    }
    const AttentionConfig config = request_config(session);
    const Status valid = validate(config);
    if (!valid.ok()) {
        session.config_message = valid.message();
        return std::nullopt;
    }
    session.config_message.clear();
    ComputeRequest request;
    request.config = config;
    request.sources = session.sources;
    // The configuration holds the mask file as read when it was opened (open_mask_file,
    // init_from_problem), with the painted cells OR-ed in: reading it again would drop them.
    request.sources.mask_path.clear();
    request.batch_item = session.batch_item;
    request.decode_step = session.decode_step;  // the token strip's choice (clamped to the steps there are)
    if (session.tokens_from_sentence && session.sources.query_path.empty()) {
        auto sentences = io::split_sentences(session.sentence_in_use);
        if (sentences.size() > 1) {
            // One sentence per item while B and L still match them; otherwise the first one.
            size_t longest = 0;
            for (const auto& words : sentences) longest = std::max(longest, words.size());
            if (static_cast<int>(sentences.size()) == config.batch && static_cast<int>(longest) == config.seq_len) {
                if (session.sentence_message == session.mismatch_note) session.sentence_message.clear();
                request.sources.sentences = std::move(sentences);
                return request;
            }
            session.mismatch_note = Message("controls.sentences_mismatch", {{"count", sentences.size()}});
            session.sentence_message = session.mismatch_note;
        }
        request.sources.tokens = effective_tokens(session);
    }
    return request;
}

}  // namespace attn::gui
