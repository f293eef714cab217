// The configuration options shared by `attnviz trace`, `bench` and `snapshot`.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "app/io/problem.h"

namespace attn::cli {

struct ConfigOptions {
    AttentionConfig config;
    io::ProblemSources sources;
    std::string mask = "none";
    std::string variant = "split";
    std::string valid_lengths;  // "6,4,1"
    std::string max_memory;     // "2GiB", "512MiB", bytes
    std::string sentence;       // --tokens "the cat sat"
};

// Adds --seq-len, --kv-len, --hidden-dim, ..., --weights, --query, --key, --value to `app`.
void add_config_options(CLI::App& app, ConfigOptions& options);
// Turns parsed options into a Problem (loads files, validates). Errors are one line.
Result<io::Problem> resolve_problem(const ConfigOptions& options);

}  // namespace attn::cli
