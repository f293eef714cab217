#include "app/gui/state/model_choice.h"

#include <algorithm>

#include "app/io/model_loader.h"
#include "app/text/languages.h"
#include "app/text/text_join.h"
#include "core/model/generate.h"
#include "core/model/tokenizer.h"

namespace attn::gui {
Message choose_model(Session& session, const std::string& name) {
    Result<std::shared_ptr<const Model>> loaded = io::load_model(name);
    if (!loaded) return loaded.message();
    const std::shared_ptr<const Model>& model = loaded.value();
    session.model = model;
    session.model_layer = 0;
    session.generating = false;  // a generation belongs to its model: Generate again for this one
    session.decode_step = 0;
    // The card's sentence in the language in use (tiny-lm-zh's in the script shown).
    session.sentence = model->spec.example_for(text::active().code());
    session.sentence_in_use = session.sentence;
    session.sentence_message.clear();
    session.unknown_note.clear();
    // Files and painted cells belong to the random weights' sizes: a trip through the
    // model must not bring them back onto the new sizes.
    drop_mask_file(session, true);
    session.sources = io::ProblemSources{};
    session.painted_mask = PaintedMask{};
    session.model_note = Message("model.note.chosen", {{"name", model->spec.name}});
    fit_default_new_tokens(session);
    return Message();
}

void choose_random_weights(Session& session, bool keep_sizes) {
    if (!session.model) return;
    const std::shared_ptr<const Model> old = std::move(session.model);  // session.model is now empty
    const ModelSpec& spec = old->spec;
    session.model_layer = 0;
    session.generating = false;
    session.decode_step = 0;
    session.unknown_note.clear();
    AttentionConfig& c = session.config;
    if (keep_sizes) {
        c.hidden_dim = spec.hidden_dim;
        c.num_heads = spec.heads;
        c.mask = spec.causal ? MaskKind::Causal : MaskKind::None;
        c.dropout = 0.0f;
        c.batch = 1;
    }
    session.sentence_message.clear();
    const std::string words = session.sentence_in_use;
    session.sentence = words;
    follow_sentence(session);  // L follows the word count, as when typed
    session.model_note = keep_sizes ? Message("model.note.random_sized", {{"name", spec.name}}) : Message("model.note.random");
}

bool choose_layer(Session& session, int layer) {
    if (!session.model) return false;
    const int clamped = std::clamp(layer, 0, std::max(0, session.model->spec.layers - 1));
    if (clamped == session.model_layer) return false;
    session.model_layer = clamped;
    return true;
}

bool follow_model_sentence(Session& session) {
    if (!session.model) return false;
    Result<TokenizedText> tokens = tokenize(session.model->spec, session.sentence);
    if (!tokens) {
        session.sentence_message =
            Message("model.sentence.still_showing", {{"error", tokens.message()}, {"sentence", session.sentence_in_use}});
        return false;
    }
    session.sentence_message.clear();
    session.unknown_note = unknown_words_note(tokens->unknown_words);
    if (session.sentence == session.sentence_in_use) return false;
    session.sentence_in_use = session.sentence;
    fit_default_new_tokens(session);
    return true;
}

// A held-out figure's name as a reader says it: the catalogue's "model.metric.<name>",
// else the card's own name with spaces ("habit_verb_accuracy" -> "habit verb accuracy"),
// so a model trained with a new metric still reads well before the catalogue knows it.
static std::string metric_name(const std::string& card_name) {
    if (const std::string* known = text::active().find("model.metric." + card_name)) return *known;
    std::string spaced = card_name;
    std::replace(spaced.begin(), spaced.end(), '_', ' ');
    return spaced;
}

std::string kind_word(ModelKind kind) {
    return text::tr(kind == ModelKind::Language ? "model.kind.language" : "model.kind.algorithmic");
}

bool choose_claim_sentence(Session& session, const HeadClaim& claim) {
    if (!session.model || claim.shown_by.empty()) return false;
    session.sentence = text::render(claim.shown_by);
    const bool sentence_changed = follow_model_sentence(session);
    const bool layer_changed = choose_layer(session, claim.layer);
    return sentence_changed || layer_changed;
}

std::vector<std::string> model_card_lines(const ModelSpec& spec, int layer) {
    std::vector<std::string> texts;
    for (CardLine& line : model_card(spec, layer)) texts.push_back(std::move(line.text));
    return texts;
}

std::vector<CardLine> model_card(const ModelSpec& spec, int layer) {
    std::vector<CardLine> lines;
    lines.push_back({text::render(spec.description)});
    lines.push_back({text::trf("model.card.sizes",
                              {{"kind", kind_word(spec.kind)},
                               {"layers", spec.layers},
                               {"layer_word", text::tr(spec.layers == 1 ? "model.card.layer_one" : "model.card.layer_many")},
                               {"heads", spec.heads},
                               {"hidden_dim", spec.hidden_dim},
                               {"head_dim", spec.head_dim()},
                               {"vocab", spec.vocab_size},
                               {"max_len", spec.max_len},
                               {"mask", text::tr(spec.causal ? "model.card.causal" : "model.card.no_mask")},
                               {"mlp", spec.mlp ? text::tr("model.card.mlp") : ""}})});
    for (size_t i = 0; i < spec.head_claims.size(); ++i) {
        const HeadClaim& claim = spec.head_claims[i];
        if (claim.layer != layer) continue;
        lines.push_back({text::trf("model.card.claim", {{"head", claim.head},
                                                        {"claim", text::render(claim.claim)},
                                                        {"measured", text::fixed(claim.measured, 2)},
                                                        {"threshold", text::fixed(claim.threshold, 2)}}),
                         static_cast<int>(i)});
    }
    std::vector<std::string> figures;
    for (const auto& [name, value] : spec.heldout_figures)
        figures.push_back(text::trf("model.card.figure", {{"name", metric_name(name)}, {"value", text::fixed(value, 2)}}));
    const std::string training = text::join_list(figures);
    if (!training.empty()) lines.push_back({text::trf("model.card.heldout", {{"figures", training}})});
    if (spec.final_train_loss >= 0) lines.push_back({text::trf("model.card.loss", {{"loss", text::fixed(spec.final_train_loss, 4)}})});
    const auto& penalty = spec.attention_entropy_penalty;
    if (layer >= 0 && static_cast<size_t>(layer) < penalty.size() && penalty[static_cast<size_t>(layer)] > 0)
        lines.push_back({text::trf("model.card.entropy_penalty", {{"penalty", text::fixed(penalty[static_cast<size_t>(layer)], 2)}})});
    if (!spec.reading_the_output.empty())
        lines.push_back({text::trf("model.card.output", {{"text", text::render(spec.reading_the_output)}})});
    if (!spec.note_key.empty()) lines.push_back({text::tr(spec.note_key)});
    return lines;
}

void fit_default_new_tokens(Session& session) {
    if (!session.model || session.generate_tokens_chosen) return;
    Result<TokenizedText> prompt = tokenize(session.model->spec, session.sentence_in_use);
    const int fit = prompt ? session.model->spec.max_len - static_cast<int>(prompt->ids.size()) : kDefaultNewTokens;
    session.generate_tokens = std::clamp(fit, 1, kDefaultNewTokens);
}

Message generation_refusal(const Session& session) {
    if (!session.model) return Message();
    if (Status s = check_sampling(session.sampling); !s) return s.message();
    Result<TokenizedText> prompt = tokenize(session.model->spec, session.sentence_in_use);
    if (!prompt) return prompt.message();
    const ModelSpec& spec = session.model->spec;
    const int P = static_cast<int>(prompt->ids.size()), N = session.generate_tokens;
    if (N < 1 || P + N > spec.max_len)
        return Message("gen.too_many", {{"tokens", N}, {"prompt", P}, {"max", spec.max_len}, {"fit", std::max(0, spec.max_len - P)}});
    return Message();
}

}  // namespace attn::gui
