// Running a case of tests/fixtures/recipes (made by tests/torch_reference/make_recipe_fixtures.py)
// through the command line's option handling, as `attnviz trace` would.
#pragma once

#include <doctest/doctest.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/options/config_options.h"
#include "app/io/model_problem.h"

namespace recipe_fixtures {

inline std::filesystem::path root() { return std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests" / "fixtures" / "recipes"; }

inline std::vector<std::string> all_cases() {
    std::ifstream file(root() / "cases.json");
    REQUIRE(file.good());
    return nlohmann::json::parse(file).get<std::vector<std::string>>();
}

inline nlohmann::json case_json(const std::string& name) {
    std::ifstream file(root() / name / "case.json");
    REQUIRE_MESSAGE(file.good(), "missing fixture ", name);
    return nlohmann::json::parse(file);
}

// The cases of tests/fixtures/recipes_decode (make_decode_fixtures.py): a recipe's
// prefill and decode steps, each block in a folder of its own.
inline std::filesystem::path decode_root() { return std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "tests" / "fixtures" / "recipes_decode"; }

inline std::vector<std::string> decode_cases() {
    std::ifstream file(decode_root() / "cases.json");
    REQUIRE(file.good());
    return nlohmann::json::parse(file).get<std::vector<std::string>>();
}

inline nlohmann::json decode_case_json(const std::string& name) {
    std::ifstream file(decode_root() / name / "case.json");
    REQUIRE_MESSAGE(file.good(), "missing fixture ", name);
    return nlohmann::json::parse(file);
}

// The problem `attnviz trace <args>` builds (options parsed by the real option table).
inline attn::Result<attn::io::Problem> problem_from_args(std::vector<std::string> args) {
    CLI::App app;
    attn::cli::ConfigOptions options;
    attn::cli::add_config_options(app, options);
    std::reverse(args.begin(), args.end());  // CLI11 takes a vector last argument first
    app.parse(args);
    return attn::cli::resolve_problem(options);
}

}  // namespace recipe_fixtures
