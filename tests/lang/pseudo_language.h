// The test-only pseudo-language (tests/lang/pseudo.json): a few English texts wrapped
// in brackets, the rest left to the English fallback, and one glyph (✓) English never
// uses, so tests can see that a switch reaches labels, text and the font's glyphs.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <regex>
#include <sstream>
#include <string>
#include <vector>

#include "app/text/languages.h"

namespace attn::test {

// Registers "pseudo" once per process; later calls find it already there.
inline void register_pseudo_language() {
    if (text::find_language("pseudo")) return;
    std::ifstream in(std::string(ATTNVIZ_SOURCE_DIR) + "/tests/lang/pseudo.json");
    REQUIRE(in);
    std::stringstream json;
    json << in.rdbuf();
    std::string error;
    REQUIRE_MESSAGE(text::register_language("pseudo", json.str(), error), error);
}

// Switches to `code` for one test and back to English afterwards, whatever happens.
struct LanguageScope {
    explicit LanguageScope(const char* code) { REQUIRE(text::set_language(code)); }
    ~LanguageScope() { text::set_language("en"); }
    LanguageScope(const LanguageScope&) = delete;
    LanguageScope& operator=(const LanguageScope&) = delete;
};

// The pieces of `key`'s English text between its {parameters} that are long enough to
// recognise (8 characters or more, spaces not counted): a window drawn in another
// language that shows one of them shows English. REQUIREs the key to exist.
inline std::vector<std::string> english_pieces(const std::string& key) {
    const std::string* pattern = text::english().find(key);
    REQUIRE_MESSAGE(pattern, key);
    static const std::regex parameter("\\{[a-z_][a-z0-9_]*\\}");
    std::vector<std::string> pieces;
    for (std::sregex_token_iterator it(pattern->begin(), pattern->end(), parameter, -1), end; it != end; ++it) {
        std::string piece = it->str();
        size_t letters = 0;
        for (char c : piece) letters += c != ' ' && c != '\n';
        if (letters >= 8) pieces.push_back(std::move(piece));
    }
    return pieces;
}

}  // namespace attn::test
