// `attnviz trace` end to end: the real binary, its files, and every error path
// (one line on stderr, exit code 2, nothing half-written).
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <fstream>
#include <sstream>
#include <sys/stat.h>
#include <sys/wait.h>

#include "app/io/file_util.h"
#include "app/io/trace_writer.h"
#include "core/forward_plan.h"
#include "tests/shell_run.h"
#include "app/io/npy.h"
#include "app/io/safetensors.h"

namespace fs = std::filesystem;

// The shell runner, scratch folders and file reading every CLI test shares (tests/shell_run.h).
using CliRun = attn::testing::ShellRun;
using attn::testing::slurp;

static fs::path scratch(const std::string& name) { return attn::testing::scratch_dir("attnviz_cli_test", name); }

// `timeout_s` > 0 kills a run that hangs (exit code 124 from coreutils' timeout).
static CliRun run_cli(const std::string& args, int timeout_s = 0) {
    const std::string prefix = timeout_s > 0 ? "timeout -s KILL " + std::to_string(timeout_s) + " " : "";
    return attn::testing::run_shell(prefix + std::string(ATTNVIZ_BINARY) + " " + args, "attnviz_cli_test");
}

static int count_lines(const std::string& text) {
    int n = 0;
    for (char c : text) n += c == '\n';
    return n;
}

static const fs::path kFixtures = fs::path(ATTNVIZ_SOURCE_DIR) / "tests" / "fixtures" / "torch";

static void write_bytes(const fs::path& p, const std::string& bytes) {
    std::ofstream(p, std::ios::binary) << bytes;
}

TEST_CASE("attnviz trace writes a manifest and one npy per step") {
    const fs::path out = scratch("trace_ok");
    CliRun r = run_cli("trace --seq-len 5 --hidden-dim 8 --num-heads 2 --mask causal --out " + out.string());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::string manifest = slurp(out / "manifest.json");
    CHECK(manifest.find("\"attn_masked\"") != std::string::npos);
    CHECK(manifest.find("\"contiguous\": false") != std::string::npos);
    attn::Result<attn::Tensor> heads = attn::io::read_npy((out / "q_heads.npy").string());
    REQUIRE(heads.ok());
    CHECK(heads->shape() == std::vector<int64_t>{1, 2, 5, 4});
    for (const auto& entry : fs::directory_iterator(out.parent_path()))
        CHECK(entry.path().filename().string().find(".tmp-") == std::string::npos);  // no leftovers
}

TEST_CASE("a trailing slash on --out names the same folder, and a trace folder is replaced") {
    const fs::path out = scratch("slash");
    for (int run = 0; run < 2; ++run) {
        CliRun r = run_cli("trace --out " + out.string() + "/");
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    }
    CHECK(fs::exists(out / "manifest.json"));
    for (const auto& entry : fs::directory_iterator(out)) CHECK(entry.path().filename().string()[0] != '.');
}

TEST_CASE("attnviz trace reproduces torch from the fixture files, and saves loadable weights") {
    const fs::path dir = kFixtures / "cross_kdim_vdim";
    const fs::path out = scratch("trace_files");
    const fs::path saved = scratch("saved.safetensors");
    CliRun r = run_cli("trace --num-heads 2 --weights " + (dir / "weights.safetensors").string() + " --query " +
                       (dir / "query.npy").string() + " --key " + (dir / "key.npy").string() + " --value " +
                       (dir / "value.npy").string() + " --save-weights " + saved.string() + " --out " + out.string());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const std::vector<float> ours = attn::io::read_npy((out / "out.npy").string()).value().to_vector();
    const std::vector<float> torch = attn::io::read_npy((dir / "out.npy").string()).value().to_vector();
    REQUIRE(ours.size() == torch.size());
    for (size_t i = 0; i < ours.size(); ++i) CHECK(ours[i] == doctest::Approx(torch[i]).epsilon(1e-4));
    attn::Result<attn::io::NamedTensors> back = attn::io::read_safetensors(saved.string());
    REQUIRE(back.ok());
    CHECK(back->size() == 6);  // q/k/v_proj_weight, in_proj_bias, out_proj.weight, out_proj.bias
}

TEST_CASE("trace --tokens with several sentences gives one batch item each, padded and masked") {
    const fs::path out = scratch("sentences");
    CliRun r = run_cli("trace --tokens \"the cat sat on the mat | a dog ran\" -H 2 --out " + out.string());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    attn::Result<attn::Tensor> input = attn::io::read_npy((out / "input.npy").string());
    REQUIRE(input.ok());
    REQUIRE(input->shape() == std::vector<int64_t>{2, 6, 6});  // B = 2 sentences, L = the longest
    // Both start differently ("the" vs "a"): the items are not copies of one sentence.
    CHECK(input->at({0, 0, 0}) != input->at({1, 0, 0}));
    // "the" is word 0 and word 4 of sentence 0: the same word, the same embedding.
    CHECK(input->at({0, 0, 1}) == input->at({0, 4, 1}));
    attn::Result<attn::Tensor> weights = attn::io::read_npy((out / "attn_weights.npy").string());
    REQUIRE(weights.ok());
    for (int key = 0; key < 6; ++key) {
        CAPTURE(key);
        CHECK((weights->at({1, 0, 0, key}) > 0.0f) == (key < 3));  // item 1: 3 words, pads masked
        CHECK(weights->at({0, 1, 2, key}) > 0.0f);                 // item 0: all 6 words
    }
    CliRun bad = run_cli("trace --tokens \"a b | \" --out " + scratch("sentences_bad").string());
    CHECK(bad.exit_code == 2);
    CHECK(count_lines(bad.err) == 1);
    CHECK(bad.err.find("sentence 2") != std::string::npos);
    CliRun disagree = run_cli("trace --tokens \"a b | c\" -B 3 --out " + scratch("sentences_b").string());
    CHECK(disagree.exit_code == 2);
}

TEST_CASE("every bad input gives one line on stderr, exit code 2 and no output folder") {
    const fs::path work = scratch("bad_inputs");
    fs::create_directories(work);
    const fs::path out = work / "out";
    const std::string good_weights = (kFixtures / "self_basic" / "weights.safetensors").string();
    const std::string good_query = (kFixtures / "self_basic" / "query.npy").string();
    const std::string weights_bytes = slurp(good_weights);

    // Crafted broken files.
    write_bytes(work / "truncated.safetensors", weights_bytes.substr(0, weights_bytes.size() / 2));
    std::string past_end = weights_bytes;
    past_end[5] = 0x7f;
    write_bytes(work / "past_end.safetensors", past_end);
    std::string bad_json = weights_bytes;
    bad_json[9] = '#';
    write_bytes(work / "bad_json.safetensors", bad_json);
    std::string wrong_dtype = weights_bytes;
    wrong_dtype.replace(wrong_dtype.find("F32"), 3, "I64");
    write_bytes(work / "wrong_dtype.safetensors", wrong_dtype);
    attn::Tensor nan_query = attn::io::read_npy(good_query).value().contiguous(true);
    nan_query.mutable_data()[3] = std::nanf("");
    REQUIRE(attn::io::write_npy((work / "nan.npy").string(), nan_query).ok());
    write_bytes(work / "not_npy.npy", "this is text");
    // A (2, 2) float32 whose header dict never closes (numpy: "EOF in multi-line statement").
    std::string unterminated = attn::io::encode_npy(attn::io::read_npy(good_query).value());
    unterminated[unterminated.find('}')] = ' ';
    write_bytes(work / "unterminated.npy", unterminated);
    // A tensor whose name holds a newline (JSON "\n"), with a dtype we refuse.
    const std::string evil_header = R"({"evil\nname":{"dtype":"I8","shape":[1],"data_offsets":[0,1]}})";
    std::string evil(8, '\0');
    evil[0] = static_cast<char>(evil_header.size());
    write_bytes(work / "evil_name.safetensors", evil + evil_header + "x");
    fs::create_directories(work / "occupied");
    write_bytes(work / "occupied" / "precious.txt", "keep me");

    struct Case { std::string why; std::string args; const char* expect; };
    const Case cases[] = {
        {"unknown option", "--frobnicate", "frobnicate"},
        {"missing --out", "", "--out"},
        {"indivisible heads", "--hidden-dim 10 --num-heads 3", "not divisible"},
        {"zero length", "--seq-len 0", "seq-len"},
        {"non-numeric size", "--seq-len abc", "seq-len"},
        {"bad mask", "--mask diagonal", "mask"},
        {"bad variant", "--variant magic", "variant"},
        {"dropout out of range", "--dropout 1.5", "dropout"},
        {"bad valid lengths", "--mask padding --valid-lengths 3,x", "valid-lengths"},
        {"valid length too long", "--mask padding --valid-lengths 9", "outside 0..4"},
        {"lengths without padding", "--valid-lengths 2", "padding"},
        {"memory budget", "--seq-len 20000 --max-memory 1MiB", "memory budget"},
        {"bad memory size", "--max-memory lots", "max-memory"},
        {"fused cross", "--variant fused --kv-len 7", "fused"},
        {"missing weights file", "--weights /nonexistent/w.safetensors", "cannot open"},
        {"truncated safetensors", "--weights " + (work / "truncated.safetensors").string(), "outside"},
        {"header past the end", "--weights " + (work / "past_end.safetensors").string(), "past the end"},
        {"bad JSON header", "--weights " + (work / "bad_json.safetensors").string(), "malformed"},
        {"wrong dtype", "--weights " + (work / "wrong_dtype.safetensors").string(), "dtype I64"},
        {"not an npy", "--query " + (work / "not_npy.npy").string(), "not a .npy"},
        {"NaN in the query", "--query " + (work / "nan.npy").string(), "NaN"},
        {"an npy header whose dict never closes", "--query " + (work / "unterminated.npy").string(), "closing '}'"},
        {"query width vs weights", "--weights " + good_weights + " --query " + (kFixtures / "causal" / "query.npy").string(), "weights file"},
        {"seq-len vs query file", "--query " + good_query + " --seq-len 3", "disagrees"},
        {"key without value", "--key " + good_query, "both a key file and a value file"},
        {"no-bias vs weights", "--weights " + good_weights + " --no-bias", "--no-bias disagrees with the weights file, which has biases"},
        {"no-qkv-bias vs weights", "--weights " + good_weights + " --no-qkv-bias", "which has q/k/v biases"},
        {"no-out-bias vs weights", "--weights " + good_weights + " --no-out-bias", "which has an output bias"},
        {"no-out-proj vs weights", "--weights " + good_weights + " --no-out-proj", "the weights have b_o"},
        {"add-bias-kv vs weights", "--weights " + good_weights + " --add-bias-kv", "which has no bias_k/bias_v"},
        {"a flag a model fixes", "--model tiny-lm --no-qkv-bias", "--no-qkv-bias cannot be combined with --model"},
        {"tokens and a query file", "--query " + good_query + " --tokens \"a b c d e\"", "not both"},
        {"unwritable weights path", "--save-weights /nonexistent/dir/w.safetensors", "cannot write"},
        {"a fill float16 cannot hold", "-L 1 -E 1 -H 1 --mask padding --valid-lengths 0 --dtype float16 --mask-fill -1e20", "--mask-fill min"},
        {"masking before a zero scale", "--mask causal --mask-before-scale --scale 0", "positive --scale"},
        {"masking before a negative scale", "--mask causal --mask-before-scale --scale -1", "positive --scale"},
        {"a newline in a tensor name stays on one line", "--weights " + (work / "evil_name.safetensors").string(), "dtype I8"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.why);
        CliRun r = run_cli("trace " + c.args + (c.why == "missing --out" ? "" : " --out " + out.string()));
        CHECK(r.exit_code == 2);
        CHECK(count_lines(r.err) == 1);
        CHECK(r.err.rfind("attnviz: error: ", 0) == 0);
        CHECK_MESSAGE(r.err.find(c.expect) != std::string::npos, r.err);
        CHECK_FALSE(fs::exists(out));
    }

    SUBCASE("a folder with a manifest.json and other files is not a trace to replace") {
        fs::create_directories(work / "project");
        write_bytes(work / "project" / "manifest.json", "{}");
        write_bytes(work / "project" / "thesis.tex", "keep me");
        CliRun r = run_cli("trace --out " + (work / "project").string());
        CHECK(r.exit_code == 2);
        CHECK(slurp(work / "project" / "thesis.tex") == "keep me");
    }
    SUBCASE("options before the subcommand are refused, not ignored") {
        CliRun r = run_cli("-L 8 trace --out " + out.string());
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("before the subcommand") != std::string::npos);
    }
    SUBCASE("a non-empty folder that is not a trace is left alone") {
        CliRun r = run_cli("trace --out " + (work / "occupied").string());
        CHECK(r.exit_code == 2);
        CHECK(r.err.find("not empty") != std::string::npos);
        CHECK(slurp(work / "occupied" / "precious.txt") == "keep me");
    }
}

TEST_CASE("devices, pipes and folders given as input files are refused at once") {
    const fs::path work = scratch("special_files");
    fs::create_directories(work);
    const fs::path out = work / "out";
    const fs::path fifo = work / "pipe.npy";
    REQUIRE(::mkfifo(fifo.c_str(), 0600) == 0);
    struct Case { std::string args; const char* expect; };
    const Case cases[] = {
        {"--query /dev/zero", "not a regular file"},       // used to read until memory ran out
        {"--weights /dev/urandom", "not a regular file"},
        {"--query " + fifo.string(), "not a regular file"},  // used to block forever
        {"--key " + fifo.string() + " --value " + fifo.string() + " --cross", "not a regular file"},
        {"--query " + work.string(), "is a folder"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.args);
        const auto start = std::chrono::steady_clock::now();
        CliRun r = run_cli("trace " + c.args + " --out " + out.string(), 20);
        const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
        CHECK(r.exit_code == 2);
        CHECK(count_lines(r.err) == 1);
        CHECK_MESSAGE(r.err.find(c.expect) != std::string::npos, r.err);
        CHECK(seconds < 10.0);
        CHECK_FALSE(fs::exists(out));
    }
}

TEST_CASE("a failed trace leaves the --save-weights file as it was, even when it is the --weights input") {
    const fs::path work = scratch("save_weights_kept");
    fs::create_directories(work);
    SUBCASE("an unwritable --out keeps a file that was already there") {
        const fs::path weights = work / "w.safetensors";
        write_bytes(weights, "keep");
        CliRun r = run_cli("trace --save-weights " + weights.string() + " --out /proc/attnviz_no_such_dir");
        CHECK(r.exit_code == 2);
        CHECK(count_lines(r.err) == 1);
        CHECK(slurp(weights) == "keep");
    }
    SUBCASE("the --weights input named again as --save-weights survives a refused --out") {
        const fs::path mine = work / "mine.safetensors";
        REQUIRE(run_cli("trace -H 2 --save-weights " + mine.string() + " --out " + (work / "first").string()).exit_code == 0);
        const std::string before = slurp(mine);
        REQUIRE(before.size() > 100);
        fs::create_directories(work / "nonempty");
        write_bytes(work / "nonempty" / "notes.txt", "keep me");
        CliRun r = run_cli("trace --weights " + mine.string() + " -H 2 --save-weights " + mine.string() + " --out " +
                           (work / "nonempty").string());
        CHECK(r.exit_code == 2);
        CHECK(slurp(mine) == before);
        CHECK(slurp(work / "nonempty" / "notes.txt") == "keep me");
    }
    SUBCASE("a folder or a device named as --save-weights is refused, not replaced") {
        CliRun r = run_cli("trace --save-weights " + work.string() + " --out " + (work / "t1").string());
        CHECK(r.exit_code == 2);
        CHECK(fs::is_directory(work));
        r = run_cli("trace --save-weights /dev/null --out " + (work / "t2").string());
        CHECK(r.exit_code == 2);
        CHECK(fs::is_character_file("/dev/null"));
        CHECK_FALSE(fs::exists(work / "t1"));
        CHECK_FALSE(fs::exists(work / "t2"));
    }
    // No temporary file (".w.safetensors.tmp-...") is left behind by any of the runs.
    for (const fs::directory_entry& entry : fs::directory_iterator(work))
        CHECK_MESSAGE(entry.path().filename().string().find(".tmp-") == std::string::npos, entry.path().string());
}

TEST_CASE("writing a file over an existing one replaces it whole or not at all") {
    const fs::path work = scratch("atomic_write");
    fs::create_directories(work);
    const fs::path target = work / "weights.bin";
    write_bytes(target, "old contents");
    REQUIRE(attn::io::write_file_bytes(target.string(), "new contents").ok());
    CHECK(slurp(target) == "new contents");
    // A staged file never touches its target until commit(); dropping it leaves nothing.
    {
        attn::Result<attn::io::StagedFile> staged = attn::io::StagedFile::write(target.string(), "staged");
        REQUIRE(staged.ok());
        CHECK(slurp(target) == "new contents");
    }
    CHECK(slurp(target) == "new contents");
    int files = 0;
    for ([[maybe_unused]] const fs::directory_entry& entry : fs::directory_iterator(work)) ++files;
    CHECK(files == 1);
    attn::Result<attn::io::StagedFile> staged = attn::io::StagedFile::write(target.string(), "committed");
    REQUIRE(staged.ok());
    REQUIRE(staged->commit().ok());
    CHECK(slurp(target) == "committed");
    CHECK_FALSE(attn::io::write_file_bytes(work.string(), "x").ok());  // a folder is not replaced
    CHECK(fs::is_directory(work));
}

TEST_CASE("an input file above the size cap is refused without being read") {
    const fs::path work = scratch("huge_file");
    fs::create_directories(work);
    const fs::path huge = work / "huge.safetensors";
    { std::ofstream(huge, std::ios::binary) << "x"; }
    fs::resize_file(huge, attn::io::kMaxInputFileBytes + 1);  // sparse: no disk space used
    const auto r = attn::io::read_file_bytes(huge.string());
    REQUIRE_FALSE(r.ok());
    CHECK(r.error().find("up to 4.0 GiB") != std::string::npos);
    CliRun cli = run_cli("trace --weights " + huge.string() + " --out " + (work / "out").string(), 20);
    CHECK(cli.exit_code == 2);
    CHECK(count_lines(cli.err) == 1);
    fs::remove(huge);
}

TEST_CASE("trace --list-steps prints the steps a written trace of the same configuration holds") {
    const std::string config = "--seq-len 4 --hidden-dim 6 --num-heads 2 --mask padding --valid-lengths 3 --dropout 0.2 --variant fused";
    CliRun listed = run_cli("trace --list-steps " + config);
    REQUIRE_MESSAGE(listed.exit_code == 0, listed.err);
    const fs::path out = scratch("trace_list_steps");
    CliRun written = run_cli("trace " + config + " --out " + out.string());
    REQUIRE_MESSAGE(written.exit_code == 0, written.err);
    const nlohmann::json manifest = nlohmann::json::parse(slurp(out / "manifest.json"));
    std::string names;
    for (const auto& step : manifest["steps"]) names += step["name"].get<std::string>() + "\n";
    CHECK(listed.out == names);
    CHECK(listed.out.find("qkv\n") != std::string::npos);  // the fused variant's own step
    CHECK(listed.out.find("attn_dropped\n") != std::string::npos);
}

#ifdef ATTNVIZ_HAS_WINDOW  // `snapshot` exists only in builds with the window
TEST_CASE("snapshot --step with an unknown name lists the valid names on one line, exit code 2") {
    CliRun r = run_cli("snapshot -L 3 -E 4 -H 2 --step attn_wieghts --out " + scratch("snapshot_bad_step").string());
    CHECK(r.exit_code == 2);
    CHECK(count_lines(r.err) == 1);
    CHECK(r.err.find("unknown step 'attn_wieghts'") != std::string::npos);
    CHECK(r.err.find("attn_weights") != std::string::npos);
}

TEST_CASE("snapshot --step takes names separated by commas; an unknown one among them is refused before drawing") {
    const fs::path out = scratch("snapshot_bad_step_list");
    CliRun r = run_cli("snapshot -L 3 -E 4 -H 2 --step attn_scores,no_such_step --out " + out.string());
    CHECK(r.exit_code == 2);
    CHECK(count_lines(r.err) == 1);
    CHECK(r.err.find("unknown step 'no_such_step'") != std::string::npos);
    CHECK_FALSE(fs::exists(out / "05_attn_scores.png"));
}
#endif

TEST_CASE("bad inputs of the articles' options give one line on stderr, exit code 2 and no output folder") {
    const fs::path work = scratch("bad_option_inputs");
    fs::create_directories(work);
    const fs::path out = work / "out";
    // (3, 3): fits neither (S) = (4) nor (L, S) = (4, 4) of the default L = S = 4.
    const attn::Tensor wrong_mask = attn::Tensor::zeros({3, 3}, {"d0", "d1"});
    REQUIRE(attn::io::write_npy((work / "wrong_mask.npy").string(), wrong_mask).ok());
    const std::string gqa_weights = (fs::path(ATTNVIZ_SOURCE_DIR) / "tests" / "fixtures" / "torch_options" / "gqa_kv2_h4" / "weights.safetensors").string();

    struct Case { std::string why; std::string args; const char* expect; };
    const Case cases[] = {
        {"mask file of the wrong shape", "--mask-file " + (work / "wrong_mask.npy").string(), "does not broadcast"},
        {"num_kv_heads not dividing num_heads", "-E 12 -H 4 --num-kv-heads 3", "num_kv_heads"},
        {"num_kv_heads above num_heads", "-H 2 --num-kv-heads 4", "num_kv_heads"},
        {"odd head width with RoPE", "-E 6 -H 2 --rope", "even"},
        {"unknown dtype", "--dtype float8", "dtype"},
        {"unknown mask preset", "--mask causal,diagonal", "diagonal"},
        {"window without a width", "--mask window", "--window"},
        {"bad mask fill", "--mask causal --mask-fill lots", "mask fill"},
        {"bad scale", "--scale huge", "scale"},
        {"bad rope style", "--rope --rope-style spiral", "rope-style"},
        {"RoPE with cross-attention", "-E 8 --rope --kv-len 6", "self-attention"},
        {"GQA with the stacked variant", "-H 2 --num-kv-heads 1 --variant stacked", "stacked"},
        {"bias_kv with the fused variant", "--add-bias-kv --variant fused", "split"},
        {"num_kv_heads vs weights file", "-H 4 --num-kv-heads 4 --weights " + gqa_weights, "--num-kv-heads"},
        {"add-bias-kv vs weights file", "-H 4 --add-bias-kv --weights " + gqa_weights, "bias_k"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.why);
        CliRun r = run_cli("trace " + c.args + " --out " + out.string());
        CHECK(r.exit_code == 2);
        CHECK(count_lines(r.err) == 1);
        CHECK(r.err.rfind("attnviz: error: ", 0) == 0);
        CHECK_MESSAGE(r.err.find(c.expect) != std::string::npos, r.err);
        CHECK_FALSE(fs::exists(out));
    }
}

TEST_CASE("attnviz trace runs the articles' options end to end and records them in the manifest") {
    const fs::path out = scratch("article_options");
    CliRun r = run_cli("trace -L 5 -E 8 -H 4 --num-kv-heads 2 --rope --position-offset 3 --mask causal,window --window 2 "
                       "--mask-fill -1e20 --scale hidden --mask-before-scale --input-dim 3 --no-qkv-bias --average-weights "
                       "--dtype bfloat16 --out " + out.string());
    REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    const nlohmann::json m = nlohmann::json::parse(slurp((out / "manifest.json").string()));
    const nlohmann::json& c = m["config"];
    CHECK(c["num_kv_heads"] == 2);
    CHECK(c["input_dim"] == 3);
    CHECK(c["rope"] == true);
    CHECK(c["position_offset"] == 3);
    CHECK(c["mask"] == "causal,window");
    CHECK(c["window"] == 2);
    CHECK(c["mask_fill"] == "-1e20");
    CHECK(c["scale"] == "hidden");
    CHECK(c["mask_before_scale"] == true);
    CHECK(c["no_qkv_bias"] == true);
    CHECK(c["dtype"] == "bfloat16");
    std::vector<std::string> names;
    for (const auto& s : m["steps"]) names.push_back(s["name"].get<std::string>());
    // The steps are the plan's for the recorded configuration, named by the step table ...
    const attn::Result<attn::AttentionConfig> recorded = attn::io::config_from_json(c);
    REQUIRE_MESSAGE(recorded.ok(), recorded.error());
    std::vector<std::string> expected;
    for (const attn::StepId id : attn::planned_steps(recorded.value())) expected.push_back(attn::step_name(id));
    CHECK(names == expected);
    // ... among them RoPE's rotations before the scores, the grouped heads' copies, the mask
    // before the scale (--mask-before-scale) and the head mean after the weights.
    const auto at = [&](const char* name) { return std::find(names.begin(), names.end(), name) - names.begin(); };
    CHECK(at("q_rot") < at("k_rot"));
    CHECK(at("k_rot") < at("k_repeated"));
    CHECK(at("v_repeated") < at("attn_scores"));
    CHECK(at("attn_masked") < at("attn_scaled"));
    CHECK(at("attn_weights") < at("attn_weights_avg"));
    CHECK(at("out") == static_cast<std::ptrdiff_t>(names.size()) - 1);
    CHECK(fs::exists(out / "rope_cos.npy"));
    CHECK(fs::exists(out / "attn_weights_avg.npy"));
}

TEST_CASE("a hexadecimal input value, a negative seed and an empty --tokens are refused, not reinterpreted") {
    const fs::path out = scratch("reinterpreted");
    struct Case { const char* why; const char* args; const char* expect; };
    const Case cases[] = {
        {"hexadecimal value", "--query-values 0x10,1", "'0x10' is not a number"},
        {"negative seed", "--seed -1", "--seed"},
        {"negative dropout seed", "--dropout-seed -3", "--dropout-seed"},
        {"empty tokens", "--tokens \"\"", "--tokens is empty"},
        {"blank tokens", "--tokens \"   \"", "--tokens is empty"},
    };
    for (const Case& c : cases) {
        CAPTURE(c.why);
        CliRun r = run_cli(std::string("trace ") + c.args + " --out " + out.string());
        CHECK(r.exit_code == 2);
        CHECK(count_lines(r.err) == 1);
        CHECK_MESSAGE(r.err.find(c.expect) != std::string::npos, r.err);
        CHECK_FALSE(fs::exists(out));
    }
    // The same values written the ordinary way are taken.
    CliRun values = run_cli("trace --query-values 16,1 --seed 0 -E 2 -H 1 --out " + out.string());
    CHECK_MESSAGE(values.exit_code == 0, values.err);
    CliRun words = run_cli("trace --tokens \"a b\" --out " + out.string());
    CHECK_MESSAGE(words.exit_code == 0, words.err);
}

// Compare mode on the command line (issue 22): A, B and A - B as three trace folders.
TEST_CASE("trace --compare writes A, B and their difference, and refuses a bad B with exit code 2") {
    const fs::path dir = scratch("compare");
    const CliRun run = run_cli("trace -L 4 -E 8 -H 2 --mask causal --compare \"--scale none\" --out " + dir.string());
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    for (const char* step : {"attn_scores", "attn_weights", "out"}) {
        CAPTURE(step);
        const auto a = attn::io::read_npy((dir / "a" / (std::string(step) + ".npy")).string());
        const auto b = attn::io::read_npy((dir / "b" / (std::string(step) + ".npy")).string());
        const auto d = attn::io::read_npy((dir / "a_minus_b" / (std::string(step) + ".npy")).string());
        REQUIRE(a);
        REQUIRE(b);
        REQUIRE(d);
        const std::vector<float> va = a->to_vector(), vb = b->to_vector(), vd = d->to_vector();
        REQUIRE(vd.size() == va.size());
        for (size_t k = 0; k < vd.size(); ++k) {
            if (std::isinf(va[k]) || std::isinf(vb[k])) CHECK(std::isinf(vd[k]));  // masked: stays masked
            else CHECK(vd[k] == va[k] - vb[k]);
        }
    }
    // The scaling comes after the scores: they agree exactly; the weights do not.
    const auto scores = attn::io::read_npy((dir / "a_minus_b" / "attn_scores.npy").string());
    for (float v : scores->to_vector()) CHECK((std::isinf(v) || v == 0.0f));
    const CliRun bad = run_cli("trace -L 4 -E 8 -H 2 --compare \"--num-heads 3\" --out " + scratch("compare_bad").string());
    CHECK(bad.exit_code == 2);
    CHECK(count_lines(bad.err) == 1);
    CHECK(run_cli("trace -L 4 -E 8 -H 2 --compare \"heads 3\" --out " + scratch("compare_bad2").string()).exit_code == 2);
}

TEST_CASE("trace --decode-from writes the prefill, one folder per decode step and generation.json") {
    const fs::path dir = scratch("generation");
    const std::string args = "trace -L 6 -E 8 -H 2 --num-kv-heads 1 --mask causal --rope --decode-from 3 --out ";
    for (int run = 0; run < 2; ++run) {  // the second run replaces the first's folder
        const CliRun r = run_cli(args + dir.string());
        REQUIRE_MESSAGE(r.exit_code == 0, r.err);
    }
    const std::string manifest = slurp(dir / "generation.json");
    CHECK(manifest.find("\"format\": \"attnviz-generation\"") != std::string::npos);
    for (const char* folder : {"prefill", "decode_001", "decode_002", "decode_003"}) {
        CAPTURE(folder);
        CHECK(fs::exists(dir / folder / "manifest.json"));
        CHECK(manifest.find(std::string("\"") + folder + "\"") != std::string::npos);
    }
    CHECK_FALSE(fs::exists(dir / "decode_004"));
    // Decode step 2 is position 4: one query row against a cache of 5 positions of H_kv = 1 head.
    const auto cache = attn::io::read_npy((dir / "decode_002" / "k_cache.npy").string());
    const auto scores = attn::io::read_npy((dir / "decode_002" / "attn_scores.npy").string());
    REQUIRE(cache);
    REQUIRE(scores);
    CHECK(cache->shape() == std::vector<int64_t>{1, 1, 5, 4});
    CHECK(scores->shape() == std::vector<int64_t>{1, 2, 1, 5});
    CHECK(slurp(dir / "decode_002" / "manifest.json").find("\"decode_position\": 4") != std::string::npos);
    for (const auto& entry : fs::directory_iterator(dir.parent_path()))
        CHECK_MESSAGE(entry.path().filename().string().find(".tmp-") == std::string::npos, entry.path().string());
}

TEST_CASE("trace --decode-from refuses what cannot be decoded, and a folder that is not a generation, with exit code 2") {
    const fs::path work = scratch("generation_bad");
    for (const char* options : {"-L 6 --mask causal --decode-from 6", "-L 6 --decode-from 3",
                                "-L 6 --mask causal --dropout 0.1 --decode-from 3", "-L 6 --mask causal --add-bias-kv --decode-from 3",
                                "-L 6 --mask causal --add-zero-attn --decode-from 3", "-L 6 -S 4 --mask causal --decode-from 3"}) {
        CAPTURE(options);
        const CliRun r = run_cli(std::string("trace ") + options + " --out " + (work / "out").string());
        CHECK(r.exit_code == 2);
        CHECK(count_lines(r.err) == 1);
        CHECK_FALSE(fs::exists(work / "out"));
    }
    // A folder of the user's is never replaced.
    fs::create_directories(work / "mine");
    write_bytes(work / "mine" / "notes.txt", "keep me");
    const CliRun r = run_cli("trace -L 6 --mask causal --decode-from 3 --out " + (work / "mine").string());
    CHECK(r.exit_code == 2);
    CHECK(count_lines(r.err) == 1);
    CHECK(slurp(work / "mine" / "notes.txt") == "keep me");
}
