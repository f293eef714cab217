// Model: a small trained transformer (the example models in assets/models), as data.
//
// Sizes, in the vocabulary of core/dims.h plus
//   V    vocab_size, the number of tokens the model knows
//   F    mlp_dim, the MLP's hidden width (4 D for the example models)
//   D    hidden_dim; the attention's E is D
// Each layer is pre-LayerNorm: x + attn(LN1(x)), then (when the model has an MLP)
// x + MLP(LN2(x)). After the last layer: final LN and lm_head (no bias, not tied).
// Filled by app/io/model_loader; the core only computes with it.
#pragma once

#include <utility>
#include <map>
#include <string>
#include <vector>

#include "core/dims.h"
#include "core/message.h"
#include "core/vocabulary.h"
#include "core/weights.h"

namespace attn {

enum class ModelKind {
    Language,     // predicts the next word at every position
    Algorithmic,  // maps a digit sequence to an output sequence (reverse, sort)
};
const char* to_string(ModelKind kind);  // "language" / "algorithmic"

// One measured claim of the card: which (layer, head) does what, and the threshold a
// test checks on held-out inputs.
struct HeadClaim {
    int layer = 0, head = 0;
    Message claim;       // one line for learners, as the card writes it (Message::written)
    std::string metric;  // "and_to_subject", "mirror_position", ...
    double measured = 0, threshold = 0;
    // A sentence on which the claim shows clearly (the card's "shown_by"), per language
    // (Message::written: tiny-lm-zh writes each script's characters); empty when the card
    // names none. The window's button beside the claim puts it in the sentence box.
    Message shown_by;
};

// What the card says about the model, everything but the numbers.
struct ModelSpec {
    std::string name;         // "tiny-lm"
    ModelKind kind = ModelKind::Language;
    // The card's prose is data, not catalogue text: each is the card's English plus any
    // other languages it gives (Message::written), shown in the language in use.
    Message description;      // one line
    int layers = 0, heads = 0, hidden_dim = 0, mlp_dim = 0, vocab_size = 0, max_len = 0;
    std::vector<std::string> vocabulary;  // V words; index = token id
    TokenUnit token_unit = TokenUnit::Word;  // the card's "token_unit": what one token is
    ScriptForms script_forms;                // the card's "script_forms": tokens per script (may be empty)
    bool prepend_bos = false;             // put <bos> in front of the words
    bool causal = false;                  // a query sees only keys at or before it
    bool mlp = false;                     // each layer has LN2 + MLP after attention
    float norm_eps = 1e-5f;
    // Llama-style choices (the card's architecture; the defaults are the GPT-style models'):
    NormKind norm = NormKind::LayerNorm;
    bool rope = false;         // positions by RoPE on q and k (half-split pairing), no position table
    double rope_base = 10000.0;
    int kv_heads = 0;          // H_kv key/value heads (grouped-query); 0: as many as heads
    bool bias = true;          // biases in q/k/v/o, the MLP and the norms; false: none anywhere
    // The recipe whose article-style class the code panel shows for this model's attention
    // (the card's "code_recipe": tiny-llama's is "llama", LlamaAttention); empty: the generic module.
    std::string code_recipe;
    // A catalogue key (the card's "note_key"): one more sentence the window shows under the
    // card, in the language in use (induction: how its two heads compose); empty: none.
    std::string note_key;
    std::string example;             // a sentence where the heads differ visibly
    // The same sentence written for a language ("zh-Hant": 小狗看見了小貓), from the card's
    // optional "example_<code>" fields; the window starts on it in that language.
    std::map<std::string, std::string> example_by_language;
    const std::string& example_for(const std::string& language) const {
        const auto it = example_by_language.find(language);
        return it == example_by_language.end() ? example : it->second;
    }
    std::vector<HeadClaim> head_claims;
    Message reading_the_output;      // how to read logits / probs, in one line (may be empty)
    // The card's training figures, for the window: held-out measures ("exact_match 1.00")
    // and the final training loss.
    std::vector<std::pair<std::string, double>> heldout_figures;
    double final_train_loss = -1;  // -1 when the card does not say
    // Per layer, the weight of the attention-entropy term added to the training loss (empty
    // or 0: none). The card says it because it shaped how crisp the heads are.
    std::vector<double> attention_entropy_penalty;
    int head_dim() const { return heads > 0 ? hidden_dim / heads : 0; }
    int kv_head_count() const { return kv_heads > 0 ? kv_heads : heads; }
};

// Norm parameters: y = (x - mean) / sqrt(var + eps) * weight + bias (LayerNorm), or
// x / sqrt(mean(x^2) + eps) * weight (RMSNorm: bias empty).
struct NormWeights {
    Vec weight, bias;  // (D) each; bias empty in a model without biases
};

struct LayerWeights {
    NormWeights ln1;         // before attention
    AttentionWeights attn;   // W_q, W_k, W_v, W_o (D, D) and biases (D)
    NormWeights ln2;         // before the MLP (MLP models only)
    Mat fc1;                 // (F, D)
    Vec fc1_bias;            // (F); empty without biases
    Mat fc2;                 // (D, F)
    Vec fc2_bias;            // (D); empty without biases
};

struct ModelWeights {
    Mat token_embedding;     // (V, D)      tok_emb.weight
    Mat position_embedding;  // (max_len, D) pos_emb.weight; empty for a RoPE model
    std::vector<LayerWeights> layers;
    NormWeights final_norm;  // ln_f
    Mat lm_head;             // (V, D), logits = LN_f(x) lm_head^T
};

struct Model {
    ModelSpec spec;
    ModelWeights weights;
};

}  // namespace attn
