#include "app/gui/model_choice.h"

#include <algorithm>
#include <cstdio>

#include "app/io/model_loader.h"
#include "core/model/tokenizer.h"

namespace attn::gui {
namespace {

std::string fixed(double v, int digits) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

}  // namespace

std::string choose_model(Session& session, const std::string& name) {
    Result<std::shared_ptr<const Model>> loaded = io::load_model(name);
    if (!loaded) return loaded.error();
    const std::shared_ptr<const Model>& model = loaded.value();
    session.model = model;
    session.model_layer = 0;
    session.sentence = model->spec.example;
    session.sentence_in_use = model->spec.example;
    session.sentence_message.clear();
    session.unknown_note.clear();
    session.sources = io::ProblemSources{};  // files belong to the random weights' sizes
    session.model_note = "trained model '" + model->spec.name + "': its sizes are fixed; the sentence uses its vocabulary";
    return "";
}

void choose_random_weights(Session& session, bool keep_sizes) {
    if (!session.model) return;
    const ModelSpec spec = session.model->spec;
    session.model.reset();
    session.model_layer = 0;
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
    session.model_note = "now random (untrained) weights" +
                         std::string(keep_sizes ? " of " + spec.name + "'s sizes" : "") +
                         ": nothing here was learned; pick a trained model to compare";
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
        session.sentence_message = tokens.error() + " (still showing: \"" + session.sentence_in_use + "\")";
        return false;
    }
    session.sentence_message.clear();
    session.unknown_note = unknown_words_note(tokens.value());
    if (session.sentence == session.sentence_in_use) return false;
    session.sentence_in_use = session.sentence;
    return true;
}

std::vector<std::string> model_card_lines(const ModelSpec& spec, int layer) {
    std::vector<std::string> lines;
    lines.push_back(spec.description);
    lines.push_back(std::string(to_string(spec.kind)) + " model: " + std::to_string(spec.layers) + " layer" +
                    (spec.layers == 1 ? "" : "s") + ", " + std::to_string(spec.heads) + " heads, hidden_dim " +
                    std::to_string(spec.hidden_dim) + " (d_h " + std::to_string(spec.head_dim()) + "), vocabulary " +
                    std::to_string(spec.vocab_size) + ", at most " + std::to_string(spec.max_len) + " tokens" +
                    (spec.causal ? ", causal mask" : ", no mask") + (spec.mlp ? ", MLP after attention" : ""));
    for (const HeadClaim& claim : spec.head_claims) {
        if (claim.layer != layer) continue;
        lines.push_back("head " + std::to_string(claim.head) + ": " + claim.claim + " - measured " +
                        fixed(claim.measured, 2) + " on held-out inputs (tested >= " + fixed(claim.threshold, 2) + ")");
    }
    std::string training;
    for (const auto& [name, value] : spec.heldout_figures) {
        training += (training.empty() ? "" : ", ") + name + " " + fixed(value, 2);
    }
    if (!training.empty()) lines.push_back("held-out: " + training);
    if (spec.final_train_loss >= 0) lines.push_back("final training loss " + fixed(spec.final_train_loss, 4));
    if (!spec.reading_the_output.empty()) lines.push_back("output: " + spec.reading_the_output);
    return lines;
}

}  // namespace attn::gui
