// The configuration options shared by the window, `attnviz trace`, `bench` and `snapshot`:
// one option per row of the field table (core/config_fields.h), plus the input files,
// the sentence, the trained model and the typed input values.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "app/io/problem.h"
#include "core/config_fields.h"
#include "core/model/sampling.h"

namespace attn::cli {

struct ConfigOptions {
    AttentionConfig config;     // numbers and flags are parsed straight into it
    io::ProblemSources sources;
    // Per row of config_fields(): the text of an option that is not a plain number or
    // flag ("causal,left-padding", "2GiB", "6,4,1"; "" when not given and shown with no
    // default), and the option itself (nullptr when the row has none here).
    std::vector<std::string> texts;
    std::vector<CLI::Option*> field_options;
    std::string sentence;       // --tokens "the cat sat" or "the cat sat | a dog ran away" (one per item)
    std::string model;          // --model tiny-lm or a card's path; empty: the seeded random weights
    int layer = 0;              // --layer: which of the model's layers the trace shows
    CLI::Option* sentence_option = nullptr;  // to tell --tokens "" from no --tokens
    CLI::Option* layer_option = nullptr;
    // --generate N: with a next-token --model, N tokens generated after the sentence, each a
    // decode step of every layer (core/model/generate.h); 0: none. --temperature, --top-k,
    // --top-p and --sample-seed say how each is drawn (core/model/sampling.h).
    int generate = 0;
    SamplingSettings sampling;
    std::vector<CLI::Option*> sampling_options;  // the four above, to tell given from default
    std::string query_values;  // --query-values "0.43,0.15,0.89; 0.55,0.87,0.66"
    std::string key_values;    // --key-values (with --value-values: cross-attention)
    std::string value_values;
    CLI::Option* typed_value_options[3] = {nullptr, nullptr, nullptr};  // --query-values, --key-values, --value-values
    bool score_scale = true;   // whether --scale was registered (snapshot uses the name otherwise)
    std::vector<CLI::Option*> all_options;  // every option add_config_options registered

    // The option text of the field `name` (a row name of config_fields()).
    std::string& text(const std::string& name) { return texts[field_index(config_field(name))]; }
    const std::string& text(const std::string& name) const { return texts[field_index(config_field(name))]; }
    // True when the option of the field `name` was on the command line.
    bool given(const std::string& name) const;
};

// Makes `app`'s --help speak the language in use (set it first): CLI11's headings
// ("Usage", "Options", ...) and the help flag's own line come from the catalogue.
// Subcommands added afterwards share them.
void use_catalogue_for_help(CLI::App& app);

// Adds --seq-len, --hidden-dim, ..., --weights, --query, --key, --value, --model, --layer to `app`.
// `score_scale` false leaves out --scale (snapshot uses that name for its resolution).
void add_config_options(CLI::App& app, ConfigOptions& options, bool score_scale = true);
// Turns parsed options into a Problem (loads files, validates). Errors are one line.
// With --recipe the recipe's configuration comes first and every option that was given
// is applied on top of it (as if written after the recipe's own options).
Result<io::Problem> resolve_problem(ConfigOptions options);
// The options that rebuild `config` ("--seq-len=5", "--rope", ...): every field with an
// option, flags only when on, sizes that are 0 ("derived") and empty texts left out.
std::vector<std::string> command_line_of(const AttentionConfig& config);

// --generate and the sampling options against the problem they go with: refused without a
// next-token --model, with --decode-from, with bad settings, or when the sentence plus N
// tokens do not fit the model's max_len (one message each, error.generate.* / error.sample.*).
Status check_generation_options(const ConfigOptions& options, const io::Problem& problem);

// "2GiB", "512MiB", "1.5G", "1000000" -> bytes.
Result<uint64_t> parse_byte_size(const std::string& text);

}  // namespace attn::cli
