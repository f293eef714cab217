// The subcommands of `attnviz`. Each registers its options on `parent` and returns
// the subcommand; after parsing, the matching run_* function does the work and
// returns the exit code (0 ok, 2 bad input with one line already on stderr).
#pragma once

#include <CLI/CLI.hpp>
#include <string>

#include "app/options/config_options.h"

namespace attn::cli {

// Prints "attnviz: error: <message>" on stderr and returns 2.
int fail(const std::string& message);
// The same for a message of the core or the loaders, in the language in use (English
// unless --lang chose another).
int fail(const Message& message);

struct TraceCommand {
    ConfigOptions config;
    std::string out_dir;
    std::string save_weights;
    bool list_steps = false;  // print planned_steps() instead of writing a trace
    std::string compare;      // --compare "OPTIONS": also B (these options on top) and A − B (cmd_trace_compare.cpp)
};
CLI::App* add_trace_command(CLI::App& parent, TraceCommand& command);
int run_trace(const TraceCommand& command);
// `attnviz trace --compare`: DIR/a, DIR/b and DIR/a_minus_b (the steps both record with one shape).
int run_trace_compare(const TraceCommand& command, const io::Problem& a);
// --decode-from P: the prefill and each decode step against the KV cache, as folders.
int run_trace_generation(const TraceCommand& command, const io::Problem& problem);

struct BenchCommand {
    ConfigOptions config;
    int repeat = 7;
    int threads = 0;  // 0: OpenMP's default
    bool json = false;
    bool render = false;
    int width = 1280, height = 720;
    std::string lesson;  // --render --lesson: time presenting this lesson (present_bench.h)
};
CLI::App* add_bench_command(CLI::App& parent, BenchCommand& command);
int run_bench(const BenchCommand& command);

struct ExportTorchCommand {
    ConfigOptions config;
    std::string out_dir;
};
CLI::App* add_export_torch_command(CLI::App& parent, ExportTorchCommand& command);
int run_export_torch(const ExportTorchCommand& command);

struct ModelsCommand {
    bool json = false;
};
CLI::App* add_models_command(CLI::App& parent, ModelsCommand& command);
int run_models(const ModelsCommand& command);

struct RecipesCommand {
    bool json = false;
};
CLI::App* add_recipes_command(CLI::App& parent, RecipesCommand& command);
int run_recipes(const RecipesCommand& command);

}  // namespace attn::cli
