// The test-only pseudo-language (tests/lang/pseudo.json): a few English texts wrapped
// in brackets, the rest left to the English fallback, and one glyph (✓) English never
// uses, so tests can see that a switch reaches labels, text and the font's glyphs.
#pragma once

#include <doctest/doctest.h>

#include <fstream>
#include <sstream>
#include <string>

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

}  // namespace attn::test
