// `attnviz models` and `--model/--layer` on the real binary: the JSON list parses and
// names the six models, a trace writes the model's steps and token strings, and every
// bad choice is one line on stderr with exit code 2.
#include <doctest/doctest.h>

#include <filesystem>
#include <map>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <sys/wait.h>
#include <unistd.h>

#include "tests/shell_run.h"

namespace fs = std::filesystem;

namespace {

using Run = attn::testing::ShellRun;
using attn::testing::slurp;

std::string read_text(const fs::path& p) { return slurp(p); }

fs::path work_dir() {
    const fs::path dir = fs::temp_directory_path() / ("attnviz_models_test_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    return dir;
}

Run attnviz(const std::string& args) {
    return attn::testing::run_shell("timeout -s KILL 60 " + std::string(ATTNVIZ_BINARY) + " " + args, "attnviz_models_test");
}

int lines(const std::string& text) {
    int n = 0;
    for (char c : text) n += c == '\n';
    return n;
}

void check_one_line_error(const std::string& args, const std::string& expected_part) {
    CAPTURE(args);
    const Run r = attnviz(args);
    CHECK(r.exit_code == 2);
    CHECK(lines(r.err) == 1);
    CHECK(r.err.rfind("attnviz: error: ", 0) == 0);
    CHECK_MESSAGE(r.err.find(expected_part) != std::string::npos, r.err);
}

}  // namespace

TEST_CASE("attnviz models --json parses and lists the three trained models") {
    const Run r = attnviz("models --json");
    REQUIRE(r.exit_code == 0);
    const nlohmann::json list = nlohmann::json::parse(r.out, nullptr, false);
    REQUIRE(list.is_array());
    std::map<std::string, nlohmann::json> by_name;
    for (const auto& m : list) {
        for (const char* key : {"name", "kind", "layers", "heads", "hidden_dim", "vocab_size", "description"})
            CHECK_MESSAGE(m.contains(key), "missing ", key);
        by_name[m["name"].get<std::string>()] = m;
    }
    REQUIRE(by_name.size() == 6);
    CHECK(by_name["tiny-lm"]["kind"] == "language");
    CHECK(by_name["tiny-lm"]["layers"] == 2);
    CHECK(by_name["tiny-lm"]["heads"] == 4);
    {  // the size the card's own word list gives
        std::ifstream card(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "assets" / "models" / "tiny-lm.json");
        REQUIRE(card.good());
        const nlohmann::json words = nlohmann::json::parse(card)["vocabulary"];
        CHECK(by_name["tiny-lm"]["vocab_size"] == words.size());
        CHECK(words.size() > 40);
    }
    CHECK(by_name["tiny-lm-zh"]["kind"] == "language");
    CHECK(by_name["reverse"]["kind"] == "algorithmic");
    CHECK(by_name["sort"]["hidden_dim"] == 64);
    CHECK(by_name["tiny-llama"]["kind"] == "language");
    CHECK(by_name["induction"]["layers"] == 2);

    const Run plain = attnviz("models");
    REQUIRE(plain.exit_code == 0);
    CHECK(lines(plain.out) == 7);  // six models and the random weights
    CHECK(plain.out.find("tiny-lm") != std::string::npos);
    CHECK(plain.out.find("random") != std::string::npos);
}

TEST_CASE("attnviz trace --model writes the model's steps and token strings into the manifest") {
    const fs::path out = work_dir() / "trace_tiny_lm";
    const Run r = attnviz("trace --model tiny-lm --layer 1 --sentence \"the cow saw the cat\" --out " + out.string());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.err == "attnviz: note: unknown word shown as <unk>: 'cow'\n");
    const nlohmann::json manifest = nlohmann::json::parse(read_text(out / "manifest.json"));
    CHECK(manifest["tokens"] == nlohmann::json({"<bos>", "the", "<unk>", "saw", "the", "cat"}));
    CHECK(manifest["model"]["name"] == "tiny-lm");
    CHECK(manifest["model"]["layer"] == 1);
    CHECK(manifest["model"]["predicted_tokens"].size() == 6);
    std::vector<std::string> names;
    for (const auto& s : manifest["steps"]) names.push_back(s["name"].get<std::string>());
    const std::vector<std::string> expected_start = {"tokens", "token_embedding", "position_embedding", "embedding_sum",
                                                     "layer_input", "norm", "input"};
    REQUIRE(names.size() > expected_start.size());
    CHECK(std::vector<std::string>(names.begin(), names.begin() + 7) == expected_start);
    CHECK(names[names.size() - 2] == "residual");
    CHECK(names.back() == "next_token_probs");
    for (const std::string& name : names) CHECK_MESSAGE(fs::exists(out / (name + ".npy")), name);

    // An algorithmic model ends with its predicted tokens, and layer 0 has no layer_input.
    const fs::path sort_out = work_dir() / "trace_sort";
    const Run s = attnviz("trace --model sort --out " + sort_out.string());
    REQUIRE_MESSAGE(s.exit_code == 0, s.err);
    const nlohmann::json sort_manifest = nlohmann::json::parse(read_text(sort_out / "manifest.json"));
    CHECK(sort_manifest["steps"].back()["name"] == "predicted_tokens");
    for (const auto& step : sort_manifest["steps"]) CHECK(step["name"] != "layer_input");
    CHECK(sort_manifest["tokens"].size() == 13);  // the card's example
}

TEST_CASE("attnviz trace splits a Chinese sentence into characters and keeps Latin words whole") {
    // Random weights: the tokens label the rows and land in tokens.json as UTF-8.
    const fs::path out = work_dir() / "trace_chinese";
    const Run r = attnviz("trace --tokens \"我的 GPU 很快\" --out " + out.string());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const nlohmann::json tokens = nlohmann::json::parse(read_text(out / "tokens.json"));
    CHECK(tokens["query_tokens"] == nlohmann::json({"我", "的", "GPU", "很", "快"}));
    CHECK(nlohmann::json::parse(read_text(out / "manifest.json"))["config"]["seq_len"] == 5);

    // The trained Chinese model, in traditional characters.
    const fs::path zh_out = work_dir() / "trace_tiny_lm_zh";
    const Run z = attnviz("trace --model tiny-lm-zh --tokens \"小狗看見了小貓，它跑了。\" --out " + zh_out.string());
    REQUIRE_MESSAGE(z.exit_code == 0, z.err);
    CHECK(z.err.empty());  // every character is in the vocabulary
    const nlohmann::json manifest = nlohmann::json::parse(read_text(zh_out / "manifest.json"));
    CHECK(manifest["tokens"] == nlohmann::json({"<bos>", "小", "狗", "看", "見", "了", "小", "貓", "，", "它", "跑", "了", "。"}));
}

TEST_CASE("invalid UTF-8 in --tokens is one line on stderr and exit 2") {
    const std::string out = " --out " + (work_dir() / "bad_utf8").string();
    // printf writes the bytes (the shell is sh: no $'...'): 我 cut after its second byte, then a lone 0xFF.
    check_one_line_error("trace --tokens \"$(printf '\\346\\210 cat')\"" + out, "not valid UTF-8 (byte 0");
    check_one_line_error("trace --model tiny-lm-zh --tokens \"$(printf 'ab\\377')\"" + out, "not valid UTF-8 (byte 2");
}

TEST_CASE("attnviz trace --list-steps --model lists the steps the model's trace records") {
    const Run r = attnviz("trace --model reverse --list-steps");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    CHECK(r.out.rfind("tokens\ntoken_embedding\nposition_embedding\nembedding_sum\nnorm\ninput\n", 0) == 0);
    CHECK(r.out.find("attn_masked") == std::string::npos);  // an encoder: no mask
    const std::string tail = "out\nresidual\npredicted_tokens\n";
    REQUIRE(r.out.size() >= tail.size());
    CHECK(r.out.compare(r.out.size() - tail.size(), tail.size(), tail) == 0);
}

TEST_CASE("bad model choices are one line on stderr and exit 2") {
    const std::string out = " --out " + (work_dir() / "bad").string();
    check_one_line_error("trace --model gpt-5" + out, "no model called 'gpt-5'; the models are induction, tiny-llama, tiny-lm, tiny-lm-zh, reverse, sort");
    check_one_line_error("trace --model tiny-lm --layer 2" + out, "--layer 2 is out of range: model 'tiny-lm' has layers 0..1");
    check_one_line_error("trace --model reverse --layer -1" + out, "model 'reverse' has only layer 0");
    check_one_line_error("trace --model tiny-lm --tokens \"\"" + out, "the sentence is empty");
    check_one_line_error("trace --model reverse --tokens \"1 2 3 4 5 6 7 8 9\"" + out, "reads at most 8");
    check_one_line_error("trace --layer 1" + out, "--layer needs --model");
    check_one_line_error("trace --model tiny-lm --hidden-dim 32" + out, "--hidden-dim cannot be combined with --model");
    check_one_line_error("bench --model nope", "no model called 'nope'");
    check_one_line_error("trace --model /nonexistent/card.json" + out, "/nonexistent/card.json");
}

TEST_CASE("attnviz bench --model reports the load-and-trace time") {
    const Run r = attnviz("bench --model reverse -n 3 --json");
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const nlohmann::json j = nlohmann::json::parse(r.out);
    CHECK(j["model"] == "reverse");
    CHECK(j["load_and_trace_ms_median"].get<double>() > 0);
    CHECK(j["load_and_trace_ms_all"].size() == 3);
}
