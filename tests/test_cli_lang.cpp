// --lang on the command line and the language a locale names: the manifest's step prose
// follows --lang (step names stay English identifiers), error lines too, and a tag that
// names no language is one line on stderr with exit code 2.
#include <doctest/doctest.h>

#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <optional>
#include <sstream>
#include <string>

#include "app/text/language_tag.h"
#include "tests/shell_run.h"

namespace fs = std::filesystem;
using attn::testing::ShellRun;

namespace {

ShellRun run_attnviz(const std::string& args) {
    return attn::testing::run_shell(std::string(ATTNVIZ_BINARY) + " " + args, "attnviz_cli_lang_test");
}

fs::path scratch(const std::string& name) { return attn::testing::scratch_dir("attnviz_cli_lang_test", name); }

// True when `text` holds a character of the CJK blocks (U+2E80 and up, 3-byte UTF-8).
bool has_cjk(const std::string& text) {
    for (size_t i = 0; i + 2 < text.size(); ++i) {
        const auto lead = static_cast<unsigned char>(text[i]);
        const auto next = static_cast<unsigned char>(text[i + 1]);
        if (lead >= 0xE3 && lead <= 0xE9) return true;  // U+3000 .. U+9FFF
        if (lead == 0xE2 && next >= 0xBA) return true;  // U+2E80 .. U+2FFF
    }
    return false;
}

int count_lines(const std::string& text) {
    int n = 0;
    for (char c : text) n += c == '\n';
    return n;
}

// The manifest of `attnviz trace <args> --out <folder>`, or nullopt (with the run's
// stderr reported) when it failed.
std::optional<nlohmann::json> traced_manifest(const std::string& name, const std::string& args) {
    const fs::path out = scratch(name);
    const ShellRun run = run_attnviz("trace -L 4 -E 8 -H 2 --mask causal " + args + " --out " + out.string());
    INFO("stderr: " << run.err);
    CHECK(run.exit_code == 0);
    if (run.exit_code != 0) return std::nullopt;
    return nlohmann::json::parse(attn::testing::slurp(out / "manifest.json"));
}

}  // namespace

TEST_CASE("trace --lang zh-Hant writes Chinese step titles and explanations; names and numbers stay") {
    const std::optional<nlohmann::json> english = traced_manifest("en", "");
    const std::optional<nlohmann::json> hant = traced_manifest("zh_hant", "--lang zh-Hant");
    const std::optional<nlohmann::json> hans = traced_manifest("zh_hans", "--lang zh-Hans");
    REQUIRE(english);
    REQUIRE(hant);
    REQUIRE(hans);
    const nlohmann::json& en_steps = (*english)["steps"];
    const nlohmann::json& hant_steps = (*hant)["steps"];
    REQUIRE(en_steps.size() == hant_steps.size());
    REQUIRE(en_steps.size() > 10);
    size_t differing_from_hans = 0;
    for (size_t i = 0; i < en_steps.size(); ++i) {
        const std::string name = en_steps[i]["name"];
        CAPTURE(name);
        // Without --lang the manifest is English as before.
        CHECK_FALSE(has_cjk(en_steps[i]["title"].get<std::string>()));
        CHECK_FALSE(has_cjk(en_steps[i]["explanation"].get<std::string>()));
        CHECK(has_cjk(hant_steps[i]["title"].get<std::string>()));
        CHECK(has_cjk(hant_steps[i]["explanation"].get<std::string>()));
        differing_from_hans += hant_steps[i]["explanation"] != (*hans)["steps"][i]["explanation"];
        // Everything else is the same file format.
        for (const char* field : {"name", "file", "shape", "strides", "kind", "sources", "is_view"})
            CHECK(hant_steps[i][field] == en_steps[i][field]);
    }
    CHECK((*hant)["config"] == (*english)["config"]);
    // The two scripts are their own texts, not one copied.
    CHECK(differing_from_hans > en_steps.size() / 2);
}

TEST_CASE("--lang takes the regional tags: zh-TW, zh-HK, zh-MO are zh-Hant, zh and zh-CN zh-Hans") {
    const std::optional<nlohmann::json> hant = traced_manifest("hant_ref", "--lang zh-Hant");
    const std::optional<nlohmann::json> taiwan = traced_manifest("zh_tw", "--lang zh-TW");
    const std::optional<nlohmann::json> hans = traced_manifest("hans_ref", "--lang zh-Hans");
    const std::optional<nlohmann::json> china = traced_manifest("zh_cn", "--lang zh-CN");
    REQUIRE(hant);
    REQUIRE(taiwan);
    REQUIRE(hans);
    REQUIRE(china);
    CHECK((*taiwan)["steps"] == (*hant)["steps"]);
    CHECK((*china)["steps"] == (*hans)["steps"]);
    CHECK((*hant)["steps"] != (*hans)["steps"]);

    using attn::text::language_for_option;
    CHECK(language_for_option("zh-TW") == "zh-Hant");
    CHECK(language_for_option("zh-HK") == "zh-Hant");
    CHECK(language_for_option("zh-MO") == "zh-Hant");
    CHECK(language_for_option("zh") == "zh-Hans");
    CHECK(language_for_option("zh-SG") == "zh-Hans");
    CHECK(language_for_option("ZH-hant") == "zh-Hant");
    CHECK(language_for_option("en") == "en");
    CHECK(language_for_option("xx").empty());
    CHECK(language_for_option("zh_TW.UTF-8").empty());  // a locale name is not a --lang value
}

TEST_CASE("--lang with no such language is one line on stderr, exit code 2, nothing written") {
    for (const char* command : {"trace -L 3 -E 4 -H 2", "export-torch -L 3 -E 4 -H 2", "models", "recipes", "bench -L 3 -E 4 -H 2"}) {
        CAPTURE(std::string(command));
        const fs::path out = scratch("refused");
        const bool writes = std::string(command).rfind("trace", 0) == 0 || std::string(command).rfind("export", 0) == 0;
        const ShellRun run = run_attnviz(std::string(command) + " --lang xx" + (writes ? " --out " + out.string() : ""));
        CHECK(run.exit_code == 2);
        CHECK(count_lines(run.err) == 1);
        CHECK(run.err.find("--lang xx") != std::string::npos);
        CHECK(run.out.empty());
        CHECK_FALSE(fs::exists(out));
    }
    // The window refuses it the same way, before it needs a display.
    const ShellRun window = run_attnviz("--lang klingon");
    CHECK(window.exit_code == 2);
    CHECK(count_lines(window.err) == 1);
}

TEST_CASE("error lines follow --lang when it is given, and are English without it") {
    const fs::path out = scratch("bad_heads");
    const ShellRun english = run_attnviz("trace -L 4 -E 10 -H 3 --out " + out.string());
    const ShellRun chinese = run_attnviz("trace -L 4 -E 10 -H 3 --lang zh-Hant --out " + out.string());
    CHECK(english.exit_code == 2);
    CHECK(chinese.exit_code == 2);
    CHECK(count_lines(chinese.err) == 1);
    CHECK_FALSE(has_cjk(english.err));
    CHECK(has_cjk(chinese.err));
    CHECK_FALSE(fs::exists(out));
}

TEST_CASE("a locale names its language: zh_TW.UTF-8 is zh-Hant, C and unknown languages are not one") {
    using attn::text::language_for_locale;
    CHECK(language_for_locale("zh_TW.UTF-8") == "zh-Hant");
    CHECK(language_for_locale("zh_HK.UTF-8") == "zh-Hant");
    CHECK(language_for_locale("zh_CN.GB18030") == "zh-Hans");
    CHECK(language_for_locale("zh_SG") == "zh-Hans");
    CHECK(language_for_locale("zh_CN.UTF-8@pinyin") == "zh-Hans");
    CHECK(language_for_locale("zh-Hant-TW") == "zh-Hant");
    CHECK(language_for_locale("en_GB.UTF-8") == "en");
    CHECK(language_for_locale("C.UTF-8").empty());
    CHECK(language_for_locale("POSIX").empty());
    CHECK(language_for_locale("fr_FR.UTF-8").empty());
}

TEST_CASE("the environment's language: LC_ALL before LC_MESSAGES before LANG, else English") {
    struct SavedEnv {
        std::string name;
        std::optional<std::string> value;
        explicit SavedEnv(const char* n) : name(n) {
            if (const char* v = std::getenv(n)) value = v;
        }
        ~SavedEnv() {
            if (value) setenv(name.c_str(), value->c_str(), 1);
            else unsetenv(name.c_str());
        }
    };
    const SavedEnv all("LC_ALL"), messages("LC_MESSAGES"), lang("LANG");
    unsetenv("LC_ALL");
    unsetenv("LC_MESSAGES");
    unsetenv("LANG");
    using attn::text::language_from_environment;
    CHECK(language_from_environment() == "en");
    setenv("LANG", "zh_TW.UTF-8", 1);
    CHECK(language_from_environment() == "zh-Hant");
    setenv("LC_MESSAGES", "zh_CN.UTF-8", 1);
    CHECK(language_from_environment() == "zh-Hans");
    setenv("LC_ALL", "C", 1);
    CHECK(language_from_environment() == "en");  // LC_ALL decides, even for a language we lack
    setenv("LC_ALL", "", 1);                     // set but empty: not set
    CHECK(language_from_environment() == "zh-Hans");
}

TEST_CASE("models --lang and recipes --lang print their lines in that language, one per entry as in English") {
    for (const char* command : {"models", "recipes"}) {
        CAPTURE(std::string(command));
        const ShellRun english = run_attnviz(command);
        REQUIRE(english.exit_code == 0);
        CHECK_FALSE(has_cjk(english.out));
        std::string previous;
        for (const char* lang : {"zh-Hans", "zh-Hant"}) {
            CAPTURE(std::string(lang));
            const ShellRun run = run_attnviz(std::string(command) + " --lang " + lang);
            REQUIRE(run.exit_code == 0);
            CHECK(count_lines(run.out) == count_lines(english.out));
            std::istringstream en_lines(english.out), lines(run.out);
            for (std::string en_line, line; std::getline(en_lines, en_line) && std::getline(lines, line);) {
                CAPTURE(line);
                CHECK(has_cjk(line));  // every entry's words, not only some
                // The name column stays the identifier --model / --recipe takes.
                CHECK(line.substr(0, line.find(' ')) == en_line.substr(0, en_line.find(' ')));
            }
            CHECK(run.out != previous);  // each script its own text
            previous = run.out;
        }
    }
}

TEST_CASE("--help speaks --lang's language, else the locale's: option texts, headings and subcommands") {
    const auto help = [](const std::string& environment, const std::string& args) {
        const ShellRun run = attn::testing::run_shell(environment + " " + std::string(ATTNVIZ_BINARY) + " " + args, "attnviz_cli_lang_test");
        INFO("stderr: " << run.err);
        CHECK(run.exit_code == 0);
        return run.out;
    };
    const std::string hant = help("env -u LC_ALL -u LC_MESSAGES LANG=C", "--lang zh-Hant --help");
    // The option texts of the zh-Hant catalogue (assets/lang/zh-Hant.json), not English.
    CHECK(hant.find("批次大小 B") != std::string::npos);                // option.batch
    CHECK(hant.find("用法") != std::string::npos);                      // cli.help.usage
    CHECK(hant.find("顯示這份說明並結束") != std::string::npos);        // cli.help.help
    CHECK(hant.find("把每個中間張量寫成 .npy 檔案") != std::string::npos);  // a subcommand's line
    CHECK(hant.find("batch size B") == std::string::npos);
    CHECK(hant.find("Print this help message") == std::string::npos);
    CHECK(help("env -u LC_ALL -u LC_MESSAGES LANG=C", "--help --lang=zh-Hant") == hant);  // either order, either spelling
    // A subcommand's help too.
    CHECK(help("env -u LC_ALL -u LC_MESSAGES LANG=C", "trace --lang zh-Hans --help").find("批量大小 B") != std::string::npos);
    // Without --lang the locale decides; with neither, English as before.
    CHECK(help("env -u LC_ALL -u LC_MESSAGES LANG=zh_CN.UTF-8", "--help").find("批量大小 B") != std::string::npos);
    const std::string english = help("env -u LC_ALL -u LC_MESSAGES LANG=C", "--help");
    CHECK(english.find("batch size B") != std::string::npos);
    CHECK_FALSE(has_cjk(english));
}
