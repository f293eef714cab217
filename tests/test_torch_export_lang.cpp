// `attnviz export-torch --lang`: the script's comments and docstrings in that language
// (catalogue entries code.comment.*, written as keys in assets/code/*.py), its code the
// same in every language.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "app/io/torch_code.h"
#include "app/text/languages.h"
#include "tests/shell_run.h"

namespace fs = std::filesystem;
using attn::testing::ShellRun;

namespace {

ShellRun run(const std::string& command) { return attn::testing::run_shell(command, "attnviz_export_lang"); }

// attention.py of `export-torch <args> [--lang lang]`, or "" (with the failure reported).
std::string exported_script(const std::string& args, const std::string& lang) {
    const fs::path out = attn::testing::scratch_dir("attnviz_export_lang", lang.empty() ? "en" : lang);
    const ShellRun r = run(std::string(ATTNVIZ_BINARY) + " export-torch " + args + (lang.empty() ? "" : " --lang " + lang) +
                           " --out " + out.string());
    INFO(r.err);
    CHECK(r.exit_code == 0);
    return attn::testing::slurp(out / "attention.py");
}

// The comment keys `{code.comment.<name>}` written in assets/code's module and runner.
std::set<std::string> comment_keys() {
    std::set<std::string> keys;
    static const std::regex key("\\{(code\\.comment\\.[a-z_]+)\\}");
    for (const char* file : {"attention_module.py", "run_check.py"}) {
        const std::string text = attn::testing::slurp(fs::path(ATTNVIZ_SOURCE_DIR) / "assets" / "code" / file);
        for (std::sregex_iterator it(text.begin(), text.end(), key), end; it != end; ++it) keys.insert((*it)[1]);
    }
    return keys;
}

bool has_cjk(const std::string& text) {
    for (unsigned char c : text)
        if (c >= 0xE3 && c <= 0xE9) return true;
    return false;
}

}  // namespace

TEST_CASE("every comment key of the exported code is written in each language, once") {
    const std::set<std::string> keys = comment_keys();
    CHECK(keys.size() > 20);
    // The languages the app ships (assets/lang/*.json; tests register others of their own).
    for (const auto& file : fs::directory_iterator(fs::path(ATTNVIZ_SOURCE_DIR) / "assets" / "lang")) {
        const std::string code = file.path().stem().string();
        const attn::text::Catalogue* language = attn::text::find_language(code);
        REQUIRE(language);
        for (const std::string& key : keys) {
            CAPTURE(code);
            CAPTURE(key);
            CHECK(language->has_own(key));
        }
    }
    // The code panel and the English export read the comments, not the keys.
    CHECK(std::string(attn::io::torch_module_source()).find("{code.") == std::string::npos);
    CHECK(std::string(attn::io::torch_runner_source()).find("{code.") == std::string::npos);
    CHECK(std::string(attn::io::torch_module_source()).find("# one (3E, d_in) matrix makes q, k and v at once") !=
          std::string::npos);
}

TEST_CASE("a comment of several lines goes on as comment lines, or as docstring lines, at its indentation") {
    std::string error;
    REQUIRE(attn::text::register_language("commentcheck",
                                          R"({"code.comment.a": "first\nsecond", "code.comment.b": "one\n\ntwo\n"})", error));
    const attn::text::Catalogue& c = *attn::text::find_language("commentcheck");
    CHECK(attn::io::with_comments("    # {code.comment.a}\n", c) == "    # first\n    # second\n");
    CHECK(attn::io::with_comments("x = 1  # {code.comment.a}\n", c) == "x = 1  # first second\n");
    CHECK(attn::io::with_comments("    \"\"\"{code.comment.b}\"\"\"\n", c) == "    \"\"\"one\n\n    two\n    \"\"\"\n");
    CHECK(attn::io::with_comments("y = {\"a\": 1}  # plain\n", c) == "y = {\"a\": 1}  # plain\n");
}

TEST_CASE("export-torch --lang zh-Hans and zh-Hant write the comments in that language and the same code") {
    const std::string args = "-L 4 -E 8 -H 2 --mask causal --rope --seed 5";
    const std::string english = exported_script(args, "");
    REQUIRE_FALSE(english.empty());
    CHECK_FALSE(has_cjk(english));
    // The code without its comments and docstrings: Python's own parser says whether it is the same.
    const std::string same_code =
        "/usr/bin/python3 -c 'import ast, sys\n"
        "def code(p):\n"
        "    tree = ast.parse(open(p, encoding=\"utf-8\").read())\n"
        "    for node in ast.walk(tree):\n"
        "        body = getattr(node, \"body\", None)\n"
        "        if isinstance(body, list) and body and isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], \"value\", None), ast.Constant):\n"
        "            body[0].value.value = \"\"\n"
        "    return ast.dump(tree)\n"
        "sys.exit(0 if code(sys.argv[1]) == code(sys.argv[2]) else 1)' ";
    const fs::path dir = attn::testing::scratch_dir("attnviz_export_lang", "scripts");
    fs::create_directories(dir);
    std::string previous;
    for (const char* lang : {"zh-Hans", "zh-Hant"}) {
        CAPTURE(std::string(lang));
        const std::string script = exported_script(args, lang);
        CHECK(has_cjk(script));
        CHECK(script.find("{code.") == std::string::npos);
        CHECK(script.find("# step: attn_scores (B, H, L, S)") != std::string::npos);  // markers stay
        CHECK(script != previous);
        previous = script;
        {
            std::ofstream(dir / "en.py") << english;
            std::ofstream(dir / "zh.py") << script;
        }
        const ShellRun compared = run(same_code + (dir / "en.py").string() + " " + (dir / "zh.py").string());
        INFO(compared.err);
        CHECK(compared.exit_code == 0);
    }
}
