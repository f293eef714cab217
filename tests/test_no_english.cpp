// No English outside the catalogue: the sources hand the window keys and values, never a
// sentence; the texts that live in data (model cards) carry their languages themselves.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "app/io/model_card.h"
#include "app/text/languages.h"
#include "core/message.h"
#include "core/recipe.h"
#include "tests/lang/pseudo_language.h"

using namespace attn;

namespace {

// The lines of `source` that fail with a sentence written into the code:
// failure("...") or Message::plain("...") with a non-empty literal. Programmer errors
// say so with Message::internal("...") and are not reported.
std::vector<std::string> bare_literals(const std::string& source) {
    static const std::regex bare("\\b(?:failure|plain)\\(\\s*\"[^\"]");
    std::vector<std::string> found;
    std::istringstream lines(source);
    int number = 0;
    for (std::string line; std::getline(lines, line);) {
        ++number;
        const bool marker_itself = line.find("static Message internal(") != std::string::npos;  // core/message.h
        if (std::regex_search(line, bare) && !marker_itself) found.push_back(std::to_string(number) + ": " + line);
    }
    return found;
}

std::string read_source(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

}  // namespace

TEST_CASE("the literal scan finds a sentence written into a failure and lets internal errors and keys pass") {
    CHECK(bare_literals("    return R::failure(\"no weights given\");\n").size() == 1);
    CHECK(bare_literals("    return Status::failure( \"--init torch: ...\");\n").size() == 1);
    CHECK(bare_literals("    return Status::failure(Message::plain(\"line 3\"));\n").size() == 1);
    CHECK(bare_literals("    return R::failure(Message(\"error.model.no_bos\", {{\"model\", name}}));\n").empty());
    CHECK(bare_literals("    return R::failure(Message::internal(\"no weights given\"));\n").empty());
    CHECK(bare_literals("    return Message::plain(\"\");\n").empty());
}

TEST_CASE("no failure outside the command line is a sentence written into the code") {
    // app/cli and the option parser (app/options) print their own English lines (option
    // parsing, usage).
    const std::filesystem::path root(ATTNVIZ_SOURCE_DIR);
    int files = 0;
    for (const char* folder : {"core", "app"}) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root / folder)) {
            const std::string ext = entry.path().extension().string();
            if (ext != ".cpp" && ext != ".h") continue;
            const std::string relative = std::filesystem::relative(entry.path(), root).generic_string();
            if (relative.rfind("app/cli/", 0) == 0 || relative.rfind("app/options/", 0) == 0) continue;
            ++files;
            for (const std::string& line : bare_literals(read_source(entry.path()))) {
                CAPTURE(relative);
                CAPTURE(line);
                FAIL_CHECK("a sentence in a failure: give it a catalogue key (Message(\"error.…\", {...})), "
                           "or Message::internal(\"…\") for a programmer's error");
            }
        }
    }
    CHECK(files > 100);  // the scan walked the sources
}

TEST_CASE("a list of words is quoted and joined the language's way") {
    CHECK(english(quoted_list({"cow"})) == "'cow'");
    CHECK(english(quoted_list({"cow", "moon", "it"})) == "'cow', 'moon', 'it'");
    CHECK(quoted_list({}).empty());
}

TEST_CASE("a model card's text may come in several languages, English required, English the fallback") {
    const std::string card_head = R"json({"name": "tiny", "kind": "language", "layers": 1, "heads": 1, "hidden_dim": 2,
        "mlp_dim": 0, "vocab_size": 1, "max_len": 4, "vocabulary": ["a"], "prepend_bos": false, "example": "a",
        "architecture": {"norm": "layernorm", "norm_placement": "pre", "position_embedding": "learned",
                         "attention_scale": "1/sqrt(head_dim)"},)json";
    test::register_pseudo_language();
    SUBCASE("a plain string is the English text, shown in every language") {
        Result<ModelSpec> spec = io::parse_model_card(card_head + R"("description": "counts words"})", "card");
        REQUIRE_MESSAGE(spec.ok(), spec.error());
        CHECK(english(spec->description) == "counts words");
        test::LanguageScope pseudo("pseudo");
        CHECK(text::render(spec->description) == "counts words");
    }
    SUBCASE("an object gives a text per language; a language it lacks gets the English") {
        Result<ModelSpec> spec = io::parse_model_card(
            card_head + R"("description": {"en": "counts words", "pseudo": "[counts words]"},
                           "head_claims": [{"layer": 0, "head": 0, "claim": {"en": "looks back", "zh-Hans": "向前看"},
                                            "metric": "m", "measured": 1, "threshold": 0.5}]})",
            "card");
        REQUIRE_MESSAGE(spec.ok(), spec.error());
        REQUIRE(spec->head_claims.size() == 1);
        CHECK(english(spec->description) == "counts words");
        CHECK(english(spec->head_claims[0].claim) == "looks back");
        test::LanguageScope pseudo("pseudo");
        CHECK(text::render(spec->description) == "[counts words]");
        CHECK(text::render(spec->head_claims[0].claim) == "looks back");
    }
    SUBCASE("an object without English is refused with the field's name") {
        Result<ModelSpec> spec = io::parse_model_card(card_head + R"("description": {"zh-Hans": "数词"}})", "card");
        REQUIRE_FALSE(spec.ok());
        CHECK(spec.error().find("description") != std::string::npos);
    }
}

TEST_CASE("every recipe's words are English catalogue entries, and another language can replace them") {
    test::register_pseudo_language();
    for (const Recipe& recipe : recipes()) {
        CAPTURE(recipe.name);
        for (const Message* words : {&recipe.description, &recipe.special}) {
            REQUIRE(text::english().has_own(words->id));
            CHECK(words->args.empty());
        }
    }
    // pseudo.json words one recipe; the others fall back to English.
    const Recipe* llama = find_recipe("llama");
    REQUIRE(llama != nullptr);
    test::LanguageScope pseudo("pseudo");
    CHECK(text::render(llama->description).front() == '[');
    const Recipe* unworded = find_recipe("scratch-mha");
    REQUIRE(unworded != nullptr);
    CHECK(text::render(unworded->description) == english(unworded->description));
}
