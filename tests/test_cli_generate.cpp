// `--generate N` and `--decode-from P` with `--model` on the real binary: the folders of a
// generation with each layer's decode steps, generation.json with each drawn token's
// probability and the settings, the same tokens for the same --sample-seed, and every bad
// choice (N too large, bad temperature / top-k / top-p, no model, a model that reads its
// whole input) one line on stderr with exit code 2.
#include <doctest/doctest.h>

#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <unistd.h>

#include "app/io/npy.h"
#include "tests/shell_run.h"

namespace fs = std::filesystem;

namespace {

using Run = attn::testing::ShellRun;
using attn::testing::slurp;

fs::path work_dir(const std::string& name) {
    const fs::path dir = fs::temp_directory_path() / ("attnviz_generate_test_" + std::to_string(::getpid())) / name;
    fs::remove_all(dir);
    fs::create_directories(dir.parent_path());
    return dir;
}

Run attnviz(const std::string& args) {
    return attn::testing::run_shell("timeout -s KILL 60 " + std::string(ATTNVIZ_BINARY) + " " + args, "attnviz_generate_test");
}

int lines(const std::string& text) {
    int n = 0;
    for (char c : text) n += c == '\n';
    return n;
}

nlohmann::json read_json(const fs::path& p) { return nlohmann::json::parse(slurp(p), nullptr, false); }

}  // namespace

TEST_CASE("trace --generate writes the prefill, a folder per generated token and each draw's probability") {
    const fs::path dir = work_dir("greedy");
    const Run r = attnviz("trace --model tiny-llama --layer 1 --tokens \"the dog saw\" --generate 5 --out " + dir.string());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const nlohmann::json g = read_json(dir / "generation.json");
    REQUIRE(g.is_object());
    CHECK(g["format"] == "attnviz-generation");
    CHECK(g["model"] == "tiny-llama");
    CHECK(g["tokens"].size() == 9);  // <bos> the dog saw + 5
    CHECK(g["sampling"]["greedy"] == true);
    REQUIRE(g["generated"].size() == 5);
    for (size_t i = 0; i < 5; ++i) {
        const nlohmann::json& t = g["generated"][i];
        CAPTURE(i);
        CHECK(t["position"] == 4 + i);
        CHECK(t["token"] == g["tokens"][4 + i]);
        CHECK(t["probability"] == 1.0);  // greedy: the argmax had all the chance
        CHECK(t["model_probability"].get<double>() > 0.0);
        CHECK(t["model_probability"].get<double>() <= 1.0);
    }
    CHECK(g["generated"][0]["chosen_after"] == "prefill");
    CHECK(g["generated"][1]["chosen_after"] == "decode_001");
    for (const char* folder : {"prefill", "decode_001", "decode_005"}) CHECK(fs::exists(dir / folder / "manifest.json"));
    CHECK_FALSE(fs::exists(dir / "decode_006"));
    // Decode step 3 reads position 6: one query row, a cache of 7 positions of the 2 key/value heads.
    const auto cache = attn::io::read_npy((dir / "decode_003" / "k_cache.npy").string());
    REQUIRE(cache);
    CHECK(cache->shape() == std::vector<int64_t>{1, 2, 7, 16});
    const nlohmann::json m = read_json(dir / "decode_003" / "manifest.json");
    CHECK(m["decode_position"] == 6);
    CHECK(m["model"]["layer"] == 1);
}

TEST_CASE("trace --generate with sampling draws the same tokens for the same --sample-seed") {
    const std::string args = "trace --model tiny-lm --tokens \"the\" --generate 8 --temperature 1.2 --top-k 20 --top-p 0.95 ";
    const fs::path a = work_dir("seed_a"), b = work_dir("seed_b");
    REQUIRE(attnviz(args + "--sample-seed 5 --out " + a.string()).exit_code == 0);
    REQUIRE(attnviz(args + "--sample-seed 5 --out " + b.string()).exit_code == 0);
    const nlohmann::json ga = read_json(a / "generation.json"), gb = read_json(b / "generation.json");
    CHECK(ga["tokens"] == gb["tokens"]);
    CHECK(ga["sampling"]["seed"] == 5);
    CHECK(ga["sampling"]["top_k"] == 20);
    for (const auto& t : ga["generated"]) {
        CHECK(t["probability"].get<double>() > 0.0);
        CHECK(t["probability"].get<double>() <= 1.0);
    }
}

TEST_CASE("--decode-from with --model decodes every layer against its own cache, the folder showing --layer") {
    const fs::path dir = work_dir("decode_model");
    const Run r = attnviz("trace --model tiny-lm --layer 1 --decode-from 4 --out " + dir.string());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const nlohmann::json g = read_json(dir / "generation.json");
    CHECK(g["decode_from"] == 4);
    CHECK_FALSE(g.contains("generated"));
    const size_t L = g["tokens"].size();  // <bos> the dog saw the cat and it ran
    CHECK(L == 9);
    CHECK(fs::exists(dir / ("decode_00" + std::to_string(L - 4)) / "manifest.json"));
    CHECK(read_json(dir / "prefill" / "manifest.json")["model"]["layer"] == 1);
}

TEST_CASE("--generate refuses N too large, bad sampling settings and models it cannot run, one line and exit code 2") {
    const fs::path dir = work_dir("bad");
    const std::string out = " --out " + dir.string();
    const Run too_many = attnviz("trace --model tiny-lm --tokens \"the dog saw the cat\" --generate 11" + out);
    CHECK(too_many.exit_code == 2);
    CHECK(lines(too_many.err) == 1);
    CHECK(too_many.err.find("at most 10 can be generated") != std::string::npos);
    for (const char* options : {"--model tiny-lm --generate 3 --temperature -1", "--model tiny-lm --generate 3 --top-k -2",
                                "--model tiny-lm --generate 3 --top-p 0", "--model tiny-lm --generate 3 --top-p 1.5",
                                "--model tiny-lm --temperature 0.5", "-L 6 --mask causal --generate 3",
                                "--model reverse --generate 2", "--model tiny-lm --generate 2 --decode-from 3"}) {
        CAPTURE(options);
        const Run r = attnviz(std::string("trace ") + options + out);
        CHECK(r.exit_code == 2);
        CHECK(lines(r.err) == 1);
        CHECK(r.err.find("attnviz: error:") == 0);
        CHECK_FALSE(fs::exists(dir));
    }
}
