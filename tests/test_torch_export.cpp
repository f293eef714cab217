// `attnviz export-torch` end to end: the real binary writes the folder, and Debian's
// python3-torch (when installed) runs the exported script, which must report every
// step within 1e-5 of AttnViz's trace. Plus the step markers of the embedded code.
#include <doctest/doctest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <sstream>

#include "app/io/npy.h"
#include "app/io/torch_code.h"
#include "core/forward_plan.h"
#include "core/recipe.h"
#include "tests/shell_run.h"

namespace fs = std::filesystem;

namespace {

using Run = attn::testing::ShellRun;
using attn::testing::slurp;

fs::path scratch_dir(const std::string& name) { return attn::testing::scratch_dir("attnviz_torch_export", name); }

Run run_shell(const std::string& command) { return attn::testing::run_shell(command, "attnviz_torch_export"); }

Run export_torch(const std::string& args, const fs::path& out) {
    return run_shell(std::string(ATTNVIZ_BINARY) + " export-torch " + args + " --out " + out.string());
}

// Debian's python3 with torch, the one the exported script is written for.
bool have_torch() {
    static const bool have = run_shell("OMP_NUM_THREADS=1 /usr/bin/python3 -c 'import torch, numpy'").exit_code == 0;
    return have;
}

int count_lines(const std::string& text) {
    int n = 0;
    for (char c : text) n += c == '\n';
    return n;
}

struct Case {
    const char* what;
    const char* args;
};

const Case kCases[] = {
    {"default", "--seed 3"},
    {"batch of two, input_dim != hidden_dim", "-B 2 -L 5 -E 8 -H 2 --input-dim 3 --seed 4"},
    {"causal + padding mask with the -1e20 fill",
     "-B 2 -L 5 -E 8 -H 2 --mask causal,padding --valid-lengths 3,1 --mask-fill -1e20"},
    {"mask before scale, scaled by the hidden width",
     "-L 5 -E 8 -H 4 --mask causal --mask-before-scale --scale hidden --mask-fill -1e20"},
    {"left padding and a window with -inf (fully masked rows)",
     "-B 2 -L 6 -E 8 -H 2 --mask window,left-padding --window 2 --valid-lengths 0,4"},
    {"rope, half split", "-L 6 -E 8 -H 2 --rope --mask causal"},
    {"rope, interleaved, base and offset",
     "-L 5 -E 12 -H 2 --rope --rope-style interleaved --rope-base 500 --position-offset 7"},
    {"grouped-query attention", "-B 2 -L 5 -E 16 -H 4 --num-kv-heads 2 --no-bias --rope --mask causal"},
    {"no output projection", "-L 4 -E 6 -H 3 --no-out-proj --no-qkv-bias"},
    {"add_zero_attn and add_bias_kv",
     "-B 2 -L 4 -E 8 -H 2 --add-zero-attn --add-bias-kv --mask padding --valid-lengths 2"},
    {"cross-attention with kdim and vdim", "-B 2 -L 3 -S 5 -E 8 -H 2 --kdim 3 --vdim 7 --no-out-bias"},
    {"fused variant, averaged weights", "-L 4 -E 8 -H 2 --variant fused --average-weights --scale 0.3"},
    {"stacked variant", "-B 2 -L 4 -E 6 -H 3 --variant stacked --mask causal"},
    {"dropout replayed from the trace", "-B 2 -L 5 -E 8 -H 2 --dropout 0.3 --dropout-seed 9 --mask causal"},
};

}  // namespace

TEST_CASE("export-torch writes a folder whose script reproduces every step within 1e-5") {
    const bool torch = have_torch();
    if (!torch) MESSAGE("SKIPPED the python half: /usr/bin/python3 has no torch (the folders are still checked)");
    for (const Case& c : kCases) {
        CAPTURE(c.what);
        const fs::path out = scratch_dir("export");
        const Run r = export_torch(c.args, out);
        CAPTURE(r.err);
        REQUIRE(r.exit_code == 0);
        for (const char* file :
             {"attention.py", "attention.json", "weights.safetensors", "input.npy", "trace/manifest.json"})
            CHECK(fs::exists(out / file));
        if (!torch) continue;
        const Run py = run_shell("OMP_NUM_THREADS=1 /usr/bin/python3 " + (out / "attention.py").string());
        CAPTURE(py.out);
        CAPTURE(py.err);
        CHECK(py.exit_code == 0);
        CHECK(py.out.find("OK: every step within 1e-05") != std::string::npos);
        // Every step of the trace was compared (none skipped), and none is above 1e-5.
        const nlohmann::json manifest = nlohmann::json::parse(slurp(out / "trace" / "manifest.json"));
        for (const auto& step : manifest["steps"]) {
            const std::string name = step["name"];
            CAPTURE(name);
            CHECK(py.out.find("\n" + name + " ") != std::string::npos);
        }
        CHECK(py.out.find("not computed here") == std::string::npos);
        CHECK(py.out.find("above 1e-5") == std::string::npos);
    }
}

TEST_CASE("every recipe exports a script that reproduces its trace within 1e-5") {
    const bool torch = have_torch();
    if (!torch) MESSAGE("SKIPPED the python half: /usr/bin/python3 has no torch");
    for (const attn::Recipe& recipe : attn::recipes()) {
        CAPTURE(recipe.name);
        const fs::path out = scratch_dir("recipe");
        const Run r = export_torch("--recipe " + recipe.name + " --seed 123", out);
        CAPTURE(r.err);
        REQUIRE(r.exit_code == 0);
        const nlohmann::json described = nlohmann::json::parse(slurp(out / "attention.json"));
        CHECK(described["notes"].dump().find("'" + recipe.name + "'") != std::string::npos);
        if (!torch) continue;
        const Run py = run_shell("OMP_NUM_THREADS=1 /usr/bin/python3 " + (out / "attention.py").string());
        CAPTURE(py.out);
        CHECK(py.exit_code == 0);
        CHECK(py.out.find("not computed here") == std::string::npos);
    }
}

TEST_CASE("a trained model's layer and a float mask file export too") {
    if (!have_torch()) MESSAGE("SKIPPED the python half: /usr/bin/python3 has no torch");
    SUBCASE("tiny-lm: the attention steps match, the model's own steps are named as outside the module") {
        const fs::path out = scratch_dir("model");
        const Run r = export_torch("--model tiny-lm --tokens \"the cat sat on the mat\"", out);
        CAPTURE(r.err);
        REQUIRE(r.exit_code == 0);
        if (!have_torch()) return;
        const Run py = run_shell("OMP_NUM_THREADS=1 /usr/bin/python3 " + (out / "attention.py").string());
        CAPTURE(py.out);
        CHECK(py.exit_code == 0);
        CHECK(py.out.find("\nattn_weights ") != std::string::npos);
        CHECK(py.out.find("\nnorm ") != std::string::npos);
        CHECK(py.out.find("not computed here") != std::string::npos);
    }
    SUBCASE("a float (L, S) mask added to the scores, with a causal preset") {
        const fs::path out = scratch_dir("maskfile");
        const fs::path mask = scratch_dir("mask.npy");
        std::vector<float> values(4 * 4);
        for (size_t i = 0; i < values.size(); ++i) values[i] = static_cast<float>(i % 3) * -1.25f;
        const attn::Tensor t = attn::Tensor::from_values({4, 4}, {"L", "S"}, values);
        std::ofstream(mask, std::ios::binary) << attn::io::encode_npy(t);
        const Run r = export_torch("-B 2 -L 4 -E 8 -H 2 --mask causal --mask-file " + mask.string(), out);
        CAPTURE(r.err);
        REQUIRE(r.exit_code == 0);
        CHECK(fs::exists(out / "mask_file.npy"));
        if (!have_torch()) return;
        const Run py = run_shell("OMP_NUM_THREADS=1 /usr/bin/python3 " + (out / "attention.py").string());
        CAPTURE(py.out);
        CHECK(py.exit_code == 0);
        CHECK(py.out.find("\nattn_masked ") != std::string::npos);
    }
}

TEST_CASE("the exported script fails when a traced step does not match") {
    if (!have_torch()) {
        MESSAGE("SKIPPED: /usr/bin/python3 has no torch");
        return;
    }
    const fs::path out = scratch_dir("tampered");
    REQUIRE(export_torch("-L 4 -E 8 -H 2 --seed 1", out).exit_code == 0);
    // Nudge one number of the recorded scores by 1e-3: the script must notice.
    const fs::path scores = out / "trace" / "attn_scores.npy";
    std::string bytes = slurp(scores);
    float value = 0;
    std::memcpy(&value, bytes.data() + bytes.size() - 4, 4);
    value += 1e-3f;
    std::memcpy(bytes.data() + bytes.size() - 4, &value, 4);
    std::ofstream(scores, std::ios::binary) << bytes;
    const Run py = run_shell("OMP_NUM_THREADS=1 /usr/bin/python3 " + (out / "attention.py").string());
    CAPTURE(py.out);
    CHECK(py.exit_code == 1);
    CHECK(py.out.find("attn_scores") != std::string::npos);
    CHECK(py.out.find("FAILED") != std::string::npos);
}

TEST_CASE("export-torch refuses what the script cannot reproduce, and bad folders, with one line and exit 2") {
    SUBCASE("a lower compute dtype") {
        const fs::path out = scratch_dir("bf16");
        const Run r = export_torch("-L 4 -E 8 -H 2 --dtype bfloat16", out);
        CHECK(r.exit_code == 2);
        CHECK(count_lines(r.err) == 1);
        CHECK(r.err.find("float32") != std::string::npos);
        CHECK_FALSE(fs::exists(out));
    }
    SUBCASE("an unwritable path") {
        const Run r = export_torch("-L 4", "/proc/attnviz_no/export");
        CHECK(r.exit_code == 2);
        CHECK(count_lines(r.err) == 1);
        CHECK(r.err.find("attnviz: error:") == 0);
    }
    SUBCASE("a folder that holds something else") {
        const fs::path out = scratch_dir("busy");
        fs::create_directories(out);
        std::ofstream(out / "notes.txt") << "mine";
        const Run r = export_torch("-L 4", out);
        CHECK(r.exit_code == 2);
        CHECK(count_lines(r.err) == 1);
        CHECK(slurp(out / "notes.txt") == "mine");
    }
    SUBCASE("an earlier export is replaced") {
        const fs::path out = scratch_dir("again");
        REQUIRE(export_torch("-L 4", out).exit_code == 0);
        const Run r = export_torch("-L 3", out);
        CHECK(r.exit_code == 0);
        const nlohmann::json e = nlohmann::json::parse(slurp(out / "attention.json"));
        CHECK(e["L"] == 3);
    }
}

TEST_CASE("every step a forward can record maps to a line of the embedded module code") {
    const std::vector<attn::io::CodeLine>& lines = attn::io::torch_module_lines();
    REQUIRE_FALSE(lines.empty());
    // The attention steps (not a trained model's embedding, norm, residual, prediction).
    const std::set<attn::StepId> model_steps = {
        attn::StepId::Tokens,       attn::StepId::TokenEmbedding, attn::StepId::PositionEmbedding,
        attn::StepId::EmbeddingSum, attn::StepId::LayerInput,     attn::StepId::Norm,
        attn::StepId::Residual,     attn::StepId::NextTokenProbs, attn::StepId::PredictedTokens};
    for (attn::StepId id : attn::kAllStepIds) {
        if (model_steps.count(id)) continue;
        CAPTURE(attn::step_name(id));
        CHECK_FALSE(attn::io::lines_of_step(lines, id).empty());
    }
    // And each planned step of a few configurations.
    attn::AttentionConfig c;
    c.rope = true;
    c.num_heads = 2;
    c.hidden_dim = 8;
    c.num_kv_heads = 1;
    c.mask = attn::MaskKind::Causal;
    c.dropout = 0.2f;
    c.average_weights = true;
    for (attn::StepId id : attn::planned_steps(c)) CHECK_FALSE(attn::io::lines_of_step(lines, id).empty());
}

TEST_CASE("step markers are read with their shapes, and unknown names fail") {
    using attn::io::parse_step_markers;
    const auto parsed =
        parse_step_markers("x = 1\nq, k, v = qkv.chunk(3)  # step: q, k, v (B, L, E)\ny = 2  # step: attn_scores\n");
    REQUIRE(parsed.ok());
    REQUIRE(parsed->size() == 3);
    CHECK(parsed->at(0).steps.empty());
    CHECK(parsed->at(1).code == "q, k, v = qkv.chunk(3)");
    CHECK(parsed->at(1).steps == std::vector<attn::StepId>{attn::StepId::Q, attn::StepId::K, attn::StepId::V});
    CHECK(parsed->at(1).shape == "(B, L, E)");
    CHECK(parsed->at(2).steps == std::vector<attn::StepId>{attn::StepId::AttnScores});
    CHECK(parsed->at(2).shape.empty());

    const auto unknown = parse_step_markers("a = 1\nb = 2  # step: attn_score (B, H, L, S)\n");
    REQUIRE_FALSE(unknown.ok());
    CHECK(unknown.error().find("line 2") != std::string::npos);
    CHECK(unknown.error().find("attn_score") != std::string::npos);
    CHECK_FALSE(parse_step_markers("b = 2  # step: (B, H)\n").ok());
}

TEST_CASE("the module's branches are read from its conditions, and every recorded step has a line that runs") {
    const std::vector<attn::io::CodeLine>& lines = attn::io::torch_module_lines();
    // Every `if` of the module is in torch_code.cpp's table of conditions.
    CHECK(attn::io::unknown_conditions(lines) == std::vector<std::string>{});

    const auto configs = [] {
        std::vector<attn::AttentionConfig> all;
        attn::AttentionConfig c;
        c.hidden_dim = 8;
        c.num_heads = 2;
        all.push_back(c);  // plain
        c.mask = attn::MaskKind::Causal;
        c.mask_before_scale = true;
        c.dropout = 0.1f;
        all.push_back(c);  // mask before scale, dropout
        c.mask_before_scale = false;
        c.rope = true;
        c.num_kv_heads = 1;
        c.average_weights = true;
        c.no_out_proj = true;
        all.push_back(c);  // rope, GQA, averaged, no output projection
        attn::AttentionConfig f;
        f.hidden_dim = 8;
        f.variant = attn::Variant::Fused;
        all.push_back(f);
        attn::AttentionConfig x;
        x.hidden_dim = 8;
        x.kv_len = 6;
        x.kdim = 3;
        x.add_bias_kv = true;
        x.add_zero_attn = true;
        all.push_back(x);
        return all;
    }();
    for (const attn::AttentionConfig& c : configs) {
        REQUIRE(attn::validate(c).ok());
        const std::vector<bool> runs = attn::io::lines_run(lines, c);
        REQUIRE(runs.size() == lines.size());
        const std::vector<attn::StepId> steps = attn::planned_steps(c);
        for (attn::StepId id : steps) {
            CAPTURE(attn::step_name(id));
            CAPTURE(attn::to_string(c.variant));
            CHECK_FALSE(attn::io::lines_of_step_run(lines, id, c).empty());
        }
        // And no line that runs names a step this configuration does not record, except
        // where the code names a tensor AttnViz records only in some variants
        // (key_input/value_input are x itself in self-attention).
        for (size_t i = 0; i < lines.size(); ++i) {
            if (!runs[i]) continue;
            for (attn::StepId id : lines[i].steps) {
                if (id == attn::StepId::KeyInput || id == attn::StepId::ValueInput) continue;
                CAPTURE(lines[i].code);
                CHECK(std::find(steps.begin(), steps.end(), id) != steps.end());
            }
        }
    }
    // The fused branch runs only for the fused variant; the mask-first branch only with it.
    const auto line_with = [&](const std::string& code) {
        for (size_t i = 0; i < lines.size(); ++i)
            if (lines[i].code.find(code) != std::string::npos) return i;
        FAIL("no line holds " << code);
        return size_t{0};
    };
    CHECK_FALSE(attn::io::lines_run(lines, configs[0])[line_with("qkv = self.qkv_proj(x)")]);
    CHECK(attn::io::lines_run(lines, configs[3])[line_with("qkv = self.qkv_proj(x)")]);
    CHECK(attn::io::lines_run(lines, configs[1])[line_with("attn_scaled = attn_masked * self.scale")]);
    CHECK_FALSE(attn::io::lines_run(lines, configs[1])[line_with("attn_scaled = attn_scores * self.scale")]);
}
