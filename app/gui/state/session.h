// Session: what the user edits (the configuration, the sentence, input files). Only a
// validated copy of it is sent to the ComputeWorker; the views that edit it (controls,
// the menu, the open-file dialogs) read it and return an edited copy in their Actions.
#pragma once

#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "app/gui/compute/compute_worker.h"
#include "app/gui/edits/painted_mask.h"
#include "app/io/problem.h"
#include "core/config.h"
#include "core/model/model.h"

namespace attn::gui {

// Generate's new tokens until the user sets a count (shortened to what fits the model).
inline constexpr int kDefaultNewTokens = 8;

struct Session {
    AttentionConfig config;
    std::string sentence = "the cat sat on the mat";  // the box's text; '|' separates batch items
    std::string sentence_in_use = "the cat sat on the mat";  // the last text with words in every part
    // The messages below are kept as ids with values (core/message.h) and rendered when
    // drawn, so a language switch re-words them without recomputing anything.
    Message sentence_message;      // why the box's text is not used (empty when it is)
    Message mismatch_note;         // the last "B or L no longer match the sentences" note, so
                                   // it can be cleared when they match again (and nothing else is)
    bool tokens_from_sentence = true;
    std::vector<int> valid_lengths{4};  // per batch item, 0..S: how many keys padding / left padding leave
    int batch_item = 0;            // which batch item is drawn
    io::ProblemSources sources;    // file paths (weights, query, key, value)
    Message config_message;        // why the edited config cannot run (empty when fine)
    Message cross_note;            // why turning cross-attention on changed the variant
    Message option_note;           // what snap_options_to_valid last moved, and why
    // A trained example model (model_choice.h), or null for the seeded random weights. With
    // a model, the sentence is tokenised with its vocabulary and the model fixes the sizes.
    std::shared_ptr<const Model> model;
    int model_layer = 0;           // the layer whose attention is shown
    Message model_note;            // shown under the picker: what the last model change did
    Message unknown_note;          // the typed words that became <unk>, as tokenizer.h's note (empty when none)
    // Cells painted on the canvas (painted_mask.h); make_request merges them into the
    // request's mask_file. Not used with a trained model (its mask is fixed).
    PaintedMask painted_mask;
    // With --decode-from P: the decode step the token strip chose (0 the prefill, k the row
    // P + k - 1); kept so a recomputed trace shows the same step.
    int decode_step = 0;
    // The controls' Generate (a next-token model only, views/controls/view_generate.h): how
    // many tokens and how each is drawn, and whether the trace on screen is that generation.
    int generate_tokens = kDefaultNewTokens;
    // False until the user sets the count (or a lesson or --generate does): until then the
    // count is the default shortened to what fits after the sentence, so a model whose
    // example sentence nearly fills max_len does not open on a refusal.
    bool generate_tokens_chosen = false;
    SamplingSettings sampling;
    bool generating = false;
};

// The tokens the worker embeds: the sentence's words, cut or padded ("t6", ...) to seq_len.
// With several sentences ('|'), the first one.
std::vector<std::string> effective_tokens(const Session& session);
// Takes the box's text: seq_len follows the word count (1..1024); several sentences set
// B to their count, L to the longest and the padding mask's valid lengths to their
// lengths (switching an unmasked config to the padding mask when they differ). Text
// without words (or an empty sentence between bars) is not taken: the last valid
// sentence stays and sentence_message says why. Returns true when something changed.
bool follow_sentence(Session& session);
// Valid length of batch item `b` (the last one given repeats, as on the command line).
int valid_length_of(const Session& session, int b);
// Fills config/sentence from the problem the command line built.
void init_from_problem(Session& session, const io::Problem& problem);
// The request for the edited inputs, or an empty optional with session.config_message set.
std::optional<ComputeRequest> make_request(Session& session);
// The configuration make_request sends for the random weights: key/value sizes only
// with cross-attention on, one valid length per item (0..S) for the presets that read them,
// and the cells painted on the canvas merged into mask_file.
AttentionConfig request_config(const Session& session);
// Why `edit` applied to the session's configuration would not run: the core's validate()
// message, or an empty message when it runs or when the configuration is already refused
// for the same reason (the edit is then not the cause). For greying out choices.
Message refusal_of(const Session& session, const std::function<void(AttentionConfig&)>& edit);
// File > Open mask: reads the .npy at `path` into the configuration's mask file (as
// --mask-file does) and names it in sources.mask_path. Refused at once, the session then
// unchanged, when the file cannot be read or does not fit the configuration (a shape that
// does not broadcast to (B, H, L, S), bad values), painted cells or not; returns why
// (empty when opened). Painted cells are OR-ed into the new file when the trace is made.
Message open_mask_file(Session& session, const std::string& path);
// Drops the configuration's mask file (and the path naming it in the files list). With
// `only_opened`, only a file the user opened (not a recipe's key pattern).
void drop_mask_file(Session& session, bool only_opened);
// Stores the mask presets the checkboxes chose: one preset alone as `mask` (the form the
// settings file and the step texts know), any other combination in mask_presets.
void set_mask_presets(AttentionConfig& config, const MaskPresets& presets);
// After a size, input or variant change: moves the options that change made invalid to
// the nearest valid value (num_kv_heads to the nearest divisor of num_heads at or below
// it; the variant to split; RoPE off) when that makes the configuration run again, and
// sets session.option_note to what moved and why. Returns true when something moved.
bool snap_options_to_valid(Session& session);

}  // namespace attn::gui
