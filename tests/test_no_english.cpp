// No English outside the catalogue: the sources hand the window keys and values, never a
// sentence; the texts that live in data (model cards) carry their languages themselves.
#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
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

// The string literals of `code`, in order, without their quotes.
std::vector<std::string> literals_of(const std::string& code) {
    std::vector<std::string> found;
    for (size_t i = 0; i < code.size(); ++i) {
        if (code[i] == '\'') {  // a character literal such as '"' is not a string's start
            i = code.find('\'', i + (code.compare(i + 1, 1, "\\") == 0 ? 3 : 2));
            if (i == std::string::npos) break;
            continue;
        }
        if (code[i] != '"') continue;
        std::string text;
        for (++i; i < code.size() && code[i] != '"'; ++i) {
            if (code[i] == '\\' && i + 1 < code.size()) ++i;
            text += code[i];
        }
        found.push_back(text);
    }
    return found;
}

// Words with a space between them: a sentence (or the start of one), not a key or a name.
bool reads_as_sentence(const std::string& literal) {
    const size_t space = literal.find(' ');
    if (space == std::string::npos) return false;
    return std::any_of(literal.begin(), literal.end(), [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; });
}

// The lines of `source` that fail with a sentence written into the code: a failure(...)
// or Message::plain(...) whose arguments (up to the statement's ';') hold a literal that
// reads as a sentence, whether alone or joined to values with '+'. A failure that starts
// with a catalogue Message("key", ...) passes, and so do programmer errors, which say so
// with Message::internal("...").
std::vector<std::string> bare_literals(const std::string& source) {
    static const std::regex call("\\b(?:failure|plain)\\(");
    std::vector<std::string> lines;
    std::istringstream in(source);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::vector<std::string> found;
    for (size_t n = 0; n < lines.size(); ++n) {
        const std::string& line = lines[n];
        if (line.find("static Message internal(") != std::string::npos) continue;  // core/message.h, the marker itself
        for (std::sregex_iterator it(line.begin(), line.end(), call), end; it != end; ++it) {
            std::string statement = line.substr(static_cast<size_t>(it->position() + it->length()));
            for (size_t more = n + 1; statement.find(';') == std::string::npos && more < lines.size() && more < n + 5; ++more)
                statement += " " + lines[more];
            statement = statement.substr(0, statement.find(';'));
            const size_t first = statement.find_first_not_of(' ');
            const std::string args = first == std::string::npos ? "" : statement.substr(first);
            if (args.rfind("Message(", 0) == 0 || args.rfind("Message::internal(", 0) == 0) continue;
            const std::vector<std::string> literals = literals_of(args);
            if (std::any_of(literals.begin(), literals.end(), reads_as_sentence)) {
                found.push_back(std::to_string(n + 1) + ": " + line);
                break;
            }
        }
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
    // A sentence joined to values, and one on the statement's next line, are sentences too.
    CHECK(bare_literals("    return R::failure(flag + \" is empty; give at least one row\");\n").size() == 1);
    CHECK(bare_literals("    return R::failure(what + \": layer \" + std::to_string(i) +\n        \" is not square\");\n").size() == 1);
    CHECK(bare_literals("    return R::failure(\n        \"--tokens is empty\");\n").size() == 1);
    CHECK(bare_literals("    return R::failure(Message(\"error.model.no_bos\", {{\"model\", name}}));\n").empty());
    CHECK(bare_literals("    return R::failure(Message::internal(\"no weights given\"));\n").empty());
    CHECK(bare_literals("    return Message::plain(\"\");\n").empty());
    // Keys, names and dimension letters passed to a helper are not sentences.
    CHECK(bare_literals("    return R::failure(mismatch(what, k, \"B\", n, \"error.problem.source.query\"));\n").empty());
    CHECK(bare_literals("    if (c == '\"') return R::failure(Message(\"error.x\"));\n").empty());
}

TEST_CASE("no failure in core/ or app/ is a sentence written into the code") {
    // Nothing is exempt: the option parser's and the lesson reader's failures reach the
    // window (a lesson slide's problems, the window's own options), and the command line
    // prints the same catalogue entries in English or the --lang language.
    const std::filesystem::path root(ATTNVIZ_SOURCE_DIR);
    int files = 0;
    for (const char* folder : {"core", "app"}) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(root / folder)) {
            const std::string ext = entry.path().extension().string();
            if (ext != ".cpp" && ext != ".h") continue;
            const std::string relative = std::filesystem::relative(entry.path(), root).generic_string();
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
