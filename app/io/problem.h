// Problem: one fully resolved attention setup (config, weights, inputs, token labels),
// built from command-line options or GUI settings plus optional files.
// Both the command line and the window go through here, so they accept the same files
// and give the same messages.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "core/attention.h"
#include "core/config.h"
#include "core/model/model.h"
#include "core/model/model_forward.h"
#include "core/model/sampling.h"
#include "core/model/tokenizer.h"
#include "core/recipe.h"
#include "core/result.h"
#include "core/weights.h"

namespace attn::io {

// Where the numbers come from: files when a path is set, the seed otherwise.
struct ProblemSources {
    std::string weights_path;  // .safetensors (PyTorch MHA or Hugging Face names)
    std::string query_path;    // .npy (B,L,E) or (L,E)
    std::string key_path;      // .npy (B,S,kdim) or (S,kdim); cross-attention
    std::string value_path;    // .npy (B,S,vdim) or (S,vdim); cross-attention
    std::string mask_path;     // .npy mask: numpy bool (True = masked out) or float (added to the scores)
    std::vector<std::string> tokens;  // row labels; when set (and no query file) the inputs are
                                      // token embeddings and seq_len follows the token count
                                      // (the same sentence in every batch item)
    // Several sentences, one per batch item (B = their count, L = the longest; shorter ones
    // are padded with kPadToken). When set, `tokens` is ignored. With the padding mask and
    // no valid lengths given, each item's valid length is its sentence's word count.
    std::vector<std::vector<std::string>> sentences;
    // Typed matrices (app/io/typed_values.h), each (rows, width); every batch item gets a
    // copy. query_values fixes L and d_in; key_values/value_values (both or neither) make
    // cross-attention and fix S, kdim and vdim. Empty when not given.
    Mat query_values;
    // How many batch items query_values holds, stacked ((items x L, d_in)): 1 (the command
    // line) copies the one matrix into every item; the window's typed cells keep each
    // item's own rows (items = B), so editing item 1 leaves item 0 as it was. Item b of
    // the batch takes block b % items.
    int query_value_items = 1;
    Mat key_values;
    Mat value_values;
};

// The label (and embedded text) of a position that pads a short sentence.
inline constexpr const char* kPadToken = "<pad>";

struct Problem {
    AttentionConfig config;
    // What the user should know about how the options were applied (a recipe's lengths
    // clipped to a shorter -L): the command line prints each as a note, not an error.
    std::vector<Message> notes;
    // Shared, never null: the window's remembered seeded weights, a model's layer and the
    // trace all point at one copy.
    std::shared_ptr<const AttentionWeights> weights = std::make_shared<const AttentionWeights>();
    AttentionInputs inputs;
    std::vector<std::string> query_tokens;  // L labels ("t0".. when none were given)
    std::vector<std::string> key_tokens;    // S labels
    // Per batch item when the items differ (several sentences): (B) lists of L labels.
    // Empty when every item has query_tokens.
    std::vector<std::vector<std::string>> item_tokens;
    // The files and typed matrices this problem was built from (tokens and sentences left
    // out: the window keeps those in its sentence box), so a window started with
    // `--query q.npy` or `--query-values ...` keeps them when it recomputes.
    ProblemSources sources;
    // A trained example model (app/io/model_problem.h), or null for the seeded random
    // weights. With a model, config/weights/inputs are those of layer `model_layer`
    // (its attention's input is the normed residual stream) and compute_trace() runs
    // the whole model; `model_tokens` says which words were unknown.
    std::shared_ptr<const Model> model;
    int model_layer = 0;
    TokenizedText model_tokens;
    // The run (split variant) build_model_problem made on model_tokens, reused by
    // compute_trace so a model problem is computed once.
    std::shared_ptr<const ModelRun> model_run;
    // With a next-token model: `generate` tokens generated after the sentence, each drawn with
    // `sampling` (--generate N, core/model/generate.h); 0: the sentence alone. The window then
    // shows the generation in its token strip.
    int generate = 0;
    SamplingSettings sampling;
    // Labels of batch item `b`'s query rows and key columns.
    const std::vector<std::string>& query_tokens_of(int b) const;
    const std::vector<std::string>& key_tokens_of(int b) const;
};

// Starts from `recipe`: config becomes the recipe's configuration (keeping only the
// memory budget) and sources lose their files, typed values and tokens, so the recipe's
// own inputs (its example or drawn ones) are used. The window calls this on a Recipe menu
// choice; the command line applies a recipe and then the options given.
void apply_recipe(const Recipe& recipe, AttentionConfig& config, ProblemSources& sources);

// Loads files, lets their shapes decide the sizes they fix (a weights file fixes E, kdim,
// vdim and bias; a query file fixes B, L, E), checks everything agrees, validates.
// Errors are one line, naming the file and what to do.
// A configuration naming a recipe gets its example input when nothing else gives the
// query and its size fits, and its masks fitted to the final sizes (core/recipe.h). With
// InitKind::Torch and no weights file, weights, drawn inputs and the dropout mask are
// torch's (core/torch_replay.h).
Result<Problem> build_problem(AttentionConfig config, const ProblemSources& sources);

// Reads the .npy mask at `path` into config's mask_file, mask_file_is_boolean and
// mask_file_path, as --mask-file does (the window's File > Open mask too); fails with the
// reader's message and leaves config unchanged.
Status read_mask_file(AttentionConfig& config, const std::string& path);
// True when `why` is validate()'s complaint about the mask file itself (its shape or values).
bool is_mask_file_error(const Message& why);
// Such a complaint, naming the file `path` it came from; any other message as it is.
Message naming_mask_file(const Message& why, const std::string& path);

// Splits a sentence into tokens on whitespace (ASCII punctuation stays attached); each
// Chinese character and full-width punctuation mark is a token (core/text_split.h).
std::vector<std::string> split_tokens(const std::string& sentence);
// Splits "the cat sat | a dog" at '|' into sentences of tokens (one per batch item).
// A piece without words stays as an empty list so callers can name it in a message.
std::vector<std::vector<std::string>> split_sentences(const std::string& text);

}  // namespace attn::io
