// Choosing what the window computes: a trained example model (and its layer) or the
// seeded random weights, and the sentence typed for a model. Edits the Session only;
// every change leaves a visible note, never a silent switch.
#pragma once

#include <string>
#include <vector>

#include "app/gui/state/session.h"

namespace attn::gui {

// Switches the session to the embedded model `name` (io::load_model), on the card's
// example sentence and layer 0. Returns an empty message, or why not (the session is then unchanged).
Message choose_model(Session& session, const std::string& name);
// Back to the seeded random weights. With `keep_sizes` the sliders start from the model's
// sizes (L, E, H) and the model's sentence; a note says what happened.
void choose_random_weights(Session& session, bool keep_sizes);
// The layer shown (clamped to the model's layers); true when it changed.
bool choose_layer(Session& session, int layer);
// Takes the box's text for the model: tokenised with its vocabulary, unknown words noted
// (session.unknown_note); empty or too long text is not taken and sentence_message says
// why. Returns true when the text in use changed.
bool follow_model_sentence(Session& session);

// Why the session's generation (Generate in the controls) cannot run: the prompt plus
// generate_tokens does not fit the model's max_len (the message says how many fit), or a
// sampling setting is out of range; empty when it can (or without a model).
Message generation_refusal(const Session& session);
// Until the user chose a count: Generate's count becomes kDefaultNewTokens (session.h), or
// fewer when only fewer fit after the sentence in use (at least 1; the refusal then says
// why). Called when the model or its sentence changes.
void fit_default_new_tokens(Session& session);

// "language" / "algorithmic" in the language in use (model.kind.*).
std::string kind_word(ModelKind kind);

// One line of the card; a head claim's line also names its claim, for the button beside it.
struct CardLine {
    std::string text;
    int claim = -1;  // index into spec.head_claims, -1 for the other lines
};
// The card as lines for the window: sizes, what each head of `layer` learned (with the
// measured figure and the threshold the tests hold it to), training figures.
std::vector<CardLine> model_card(const ModelSpec& spec, int layer);
// The same lines' texts.
std::vector<std::string> model_card_lines(const ModelSpec& spec, int layer);
// The claim's button: puts the sentence that shows it (in the language in use) in the box
// and shows the claim's layer, as if typed and chosen. Returns true when the sentence in
// use or the layer changed.
bool choose_claim_sentence(Session& session, const HeadClaim& claim);

}  // namespace attn::gui
