#include <doctest/doctest.h>

#include <cctype>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "app/gui/shortcuts.h"
#include "app/text/languages.h"

using namespace attn::gui;

namespace {

// "GLFW_KEY_PAGE_DOWN" -> "PageDown", "GLFW_KEY_Q" -> "Q".
std::string key_word(const std::string& glfw_name) {
    std::string word;
    bool start = true;
    for (const char c : glfw_name.substr(std::string("GLFW_KEY_").size())) {
        if (c == '_') {
            start = true;
            continue;
        }
        word += start ? static_cast<char>(std::toupper(static_cast<unsigned char>(c)))
                      : static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        start = false;
    }
    return word;
}

// The words of the help table's key column ("Ctrl+Q" -> Ctrl, Q).
std::set<std::string> listed_words() {
    std::set<std::string> words;
    for (const Shortcut& s : kShortcuts) {
        std::string word;
        for (const char* c = s.keys;; ++c) {
            if (*c && std::isalnum(static_cast<unsigned char>(*c))) {
                word += *c;
                continue;
            }
            if (!word.empty()) words.insert(word);
            word.clear();
            if (!*c) break;
        }
    }
    return words;
}

}  // namespace

TEST_CASE("the keyboard help lists every key the window handles") {
    std::ifstream in(std::string(ATTNVIZ_SOURCE_DIR) + "/app/gui/entry.cpp");
    REQUIRE(in);
    std::stringstream text;
    text << in.rdbuf();
    const std::string source = text.str();
    const std::set<std::string> listed = listed_words();
    int keys = 0;
    for (size_t at = source.find("case GLFW_KEY_"); at != std::string::npos; at = source.find("case GLFW_KEY_", at + 1)) {
        size_t end = at + 5;
        while (end < source.size() && (std::isalnum(static_cast<unsigned char>(source[end])) || source[end] == '_')) ++end;
        const std::string word = key_word(source.substr(at + 5, end - at - 5));
        CAPTURE(word);
        CHECK(listed.count(word) == 1);
        ++keys;
    }
    CHECK(keys >= 10);  // the handler was found and read
    CHECK(listed.count("Ctrl") == 1);
}

TEST_CASE("every shortcut row has a key and an action in English") {
    const attn::text::Catalogue& en = attn::text::english();
    for (const Shortcut& s : kShortcuts) {
        const std::string key = std::string("shortcut.") + s.id;
        CAPTURE(key);
        REQUIRE(en.has_own(key + ".keys"));
        REQUIRE(en.has_own(key + ".action"));
        // The shown key names are the ones checked against the key handler above.
        CHECK(*en.find(key + ".keys") == s.keys);
        CHECK(en.find(key + ".action")->size() > 3);
    }
}

