// The configuration options shared by the window, `attnviz trace`, `bench` and `snapshot`.
#pragma once

#include <CLI/CLI.hpp>
#include <string>
#include <vector>

#include "app/io/problem.h"

namespace attn::cli {

struct ConfigOptions {
    AttentionConfig config;
    io::ProblemSources sources;
    std::string mask = "none";
    std::string variant = "split";
    std::string valid_lengths;  // "6,4,1"
    std::string max_memory;     // "2GiB", "512MiB", or bytes
    std::string sentence;       // --tokens "the cat sat" or "the cat sat | a dog ran away" (one per item)
    std::string model;          // --model tiny-lm or a card's path; empty: the seeded random weights
    int layer = 0;              // --layer: which of the model's layers the trace shows
    CLI::Option* mask_option = nullptr;  // to tell an explicit --mask from the default
    CLI::Option* sentence_option = nullptr;  // to tell --tokens "" from no --tokens
    CLI::Option* layer_option = nullptr;
    bool no_bias = false;
    std::string mask_fill = "-inf";
    std::string scale = "head";
    std::string rope_style = "half";
    std::string dtype = "float32";
    // Flags a weights file decides: given explicitly, they must agree with it.
    CLI::Option* no_qkv_bias_option = nullptr;
    CLI::Option* no_out_bias_option = nullptr;
    CLI::Option* no_out_proj_option = nullptr;
    CLI::Option* add_bias_kv_option = nullptr;
    // Sizes that files (or --tokens) can fix: an explicit option must agree with them.
    struct SizeOption {
        CLI::Option* option;
        const char* flag;                         // "--seq-len"
        int AttentionConfig::*given;              // the parsed value
        int (AttentionConfig::*resolved)() const; // what the problem ended up with
    };
    std::vector<SizeOption> size_options;
    // Issue 10.
    std::string recipe;        // --recipe NAME (core/recipe.h); empty: none
    std::string init;          // --init torch|attnviz; empty: torch with a recipe, attnviz without
    std::string query_values;  // --query-values "0.43,0.15,0.89; 0.55,0.87,0.66"
    std::string key_values;    // --key-values (with --value-values: cross-attention)
    std::string value_values;
    CLI::Option* recipe_option = nullptr;
    CLI::Option* typed_value_options[3] = {nullptr, nullptr, nullptr};  // --query-values, --key-values, --value-values
    bool score_scale = true;   // whether --scale was registered (snapshot uses the name otherwise)
    std::vector<CLI::Option*> all_options;  // every option add_config_options registered
};

// Adds --seq-len, --hidden-dim, ..., --weights, --query, --key, --value, --model, --layer to `app`.
// `score_scale` false leaves out --scale (snapshot uses that name for its resolution).
void add_config_options(CLI::App& app, ConfigOptions& options, bool score_scale = true);
// Turns parsed options into a Problem (loads files, validates). Errors are one line.
// With --recipe the recipe's configuration comes first and every option that was given
// is applied on top of it (as if written after the recipe's own options).
Result<io::Problem> resolve_problem(ConfigOptions options);

// "2GiB", "512MiB", "1.5G", "1000000" -> bytes.
Result<uint64_t> parse_byte_size(const std::string& text);

}  // namespace attn::cli
