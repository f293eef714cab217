// `--recipe`, `--init`, typed values and `attnviz recipes` through the real binary:
// good runs write what the manifest promises, bad input is one line and exit code 2.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <vector>
#include <sys/wait.h>
#include <unistd.h>

#include "core/recipe.h"
#include "tests/shell_run.h"

namespace fs = std::filesystem;

namespace {

using Run = attn::testing::ShellRun;
using attn::testing::slurp;

fs::path scratch_dir(const std::string& name) { return attn::testing::scratch_dir("attnviz_cli_recipe", name); }

Run run(const std::string& args) { return attn::testing::run_shell(std::string(ATTNVIZ_BINARY) + " " + args, "attnviz_cli_recipe"); }

int lines(const std::string& text) {
    int n = 0;
    for (char c : text) n += c == '\n';
    return n;
}

}  // namespace

TEST_CASE("attnviz recipes lists every recipe on one line, and --json gives their cards") {
    Run r = run("recipes");
    REQUIRE(r.exit_code == 0);
    CHECK(lines(r.out) == static_cast<int>(attn::recipes().size()));
    for (const attn::Recipe& recipe : attn::recipes()) CHECK(r.out.find(recipe.name + " ") != std::string::npos);
    Run j = run("recipes --json");
    REQUIRE(j.exit_code == 0);
    const nlohmann::json parsed = nlohmann::json::parse(j.out);
    REQUIRE(parsed.size() == attn::recipes().size());
    CHECK(parsed[2]["name"] == "scratch-mha");
    CHECK(parsed[2]["config"]["input_dim"] == 3);
    CHECK(parsed[2]["config"]["recipe"] == "scratch-mha");
    CHECK(!parsed[0]["article"].get<std::string>().empty());
}

TEST_CASE("an unknown recipe is one line naming the valid ones, exit 2, on every subcommand") {
    std::vector<std::string> subcommands = {"trace --out /nonexistent/never", "bench --repeat 1"};
#ifdef ATTNVIZ_HAS_WINDOW
    subcommands.push_back("snapshot --out /nonexistent/never");
#endif
    for (const std::string& sub : subcommands) {
        CAPTURE(sub);
        Run r = run(sub + " --recipe scratch");
        CHECK(r.exit_code == 2);
        CHECK(lines(r.err) == 1);
        CHECK(r.err.find("unknown recipe 'scratch'") != std::string::npos);
        CHECK(r.err.find("scratch-mha") != std::string::npos);
        CHECK(r.err.find("torch-mha") != std::string::npos);
    }
}

TEST_CASE("bad typed values are one line and exit 2") {
    const char* bad[] = {"--query-values \"1,2,3; 4,5\"", "--query-values \"1,abc\"", "--query-values nan,1",
                         "--query-values \"\"", "--key-values \"1,2\"", "--key-values \"1,2\" --value-values \"1,2; 3,4\"",
                         "--init pytorch"};
    for (const char* args : bad) {
        CAPTURE(args);
        Run r = run(std::string("trace --out ") + scratch_dir("bad").string() + " " + args);
        CHECK(r.exit_code == 2);
        CHECK(lines(r.err) == 1);
    }
}

TEST_CASE("attnviz trace --recipe records the recipe and init in the manifest and the article's tokens") {
    const fs::path out = scratch_dir("recipe_trace");
    Run r = run("trace --recipe scratch-mha --seed 123 --out " + out.string());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const nlohmann::json manifest = nlohmann::json::parse(slurp(out / "manifest.json"));
    CHECK(manifest["config"]["recipe"] == "scratch-mha");
    CHECK(manifest["config"]["init"] == "torch");
    CHECK(manifest["config"]["batch"] == 2);
    const nlohmann::json tokens = nlohmann::json::parse(slurp(out / "tokens.json"));
    CHECK(tokens["query_tokens"] == std::vector<std::string>{"Your", "journey", "starts", "with", "one", "step"});

    const fs::path typed = scratch_dir("typed_trace");
    Run t = run("trace -E 4 -H 2 -B 2 --query-values \"1,0,0,0; 0,1,0,0; 0,0,1,0\" --init torch --out " + typed.string());
    REQUIRE_MESSAGE(t.exit_code == 0, t.err);
    const nlohmann::json typed_manifest = nlohmann::json::parse(slurp(typed / "manifest.json"));
    CHECK(typed_manifest["config"]["recipe"].is_null());
    CHECK(typed_manifest["config"]["init"] == "torch");
    CHECK(typed_manifest["config"]["seq_len"] == 3);
    CHECK(typed_manifest["config"]["batch"] == 2);
}

TEST_CASE("a recipe's valid lengths follow a new -L and -B, clipped with a note") {
    struct Case { const char* args; int batch; std::vector<int> lengths; bool clipped; };
    const Case cases[] = {
        {"--recipe selfatt-v3 -L 2", 3, {2, 2, 1}, true},
        {"--recipe selfatt-v3 -L 2 -B 3", 3, {2, 2, 1}, true},
        {"--recipe selfatt-v4 -L 2 -B 4", 4, {2, 2, 1, 2}, true},
        {"--recipe selfatt-v3 -B 2", 2, {3, 2}, false},
    };
    for (const Case& c : cases) {
        CAPTURE(c.args);
        const fs::path out = scratch_dir("recipe_lengths");
        Run r = run(std::string("trace ") + c.args + " --out " + out.string());
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
        const nlohmann::json manifest = nlohmann::json::parse(slurp(out / "manifest.json"));
        CHECK(manifest["config"]["batch"] == c.batch);
        CHECK(manifest["config"]["valid_lengths"] == c.lengths);
        // The note says the lengths came from the recipe and what they became.
        CHECK((r.err.find("note: recipe 'selfatt-v") != std::string::npos) == c.clipped);
        if (c.clipped) CHECK(lines(r.err) == 1);
    }
    // Lengths the user gives are the user's: out of range is still an error, not clipped.
    Run bad = run("trace --recipe selfatt-v3 -L 2 --valid-lengths 3,3,3 --out " + scratch_dir("user_lengths").string());
    CHECK(bad.exit_code == 2);
    CHECK(bad.err.find("outside 0..2") != std::string::npos);
}
