#include <doctest/doctest.h>

#include <algorithm>
#include <cctype>
#include <set>
#include <string>
#include <vector>

#include <GLFW/glfw3.h>

#include "app/gui/window/key_actions.h"
#include "app/gui/kit/shortcuts.h"
#include "app/text/languages.h"
#include "tests/shell_run.h"

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
    const std::string source = attn::testing::slurp(std::string(ATTNVIZ_SOURCE_DIR) + "/app/gui/window/key_actions.cpp");
    REQUIRE(!source.empty());
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

TEST_CASE("in the browser the N row says the speaker notes stay over the canvas") {
    const auto row = [](const std::string& id) {
        return *std::find_if(kShortcuts.begin(), kShortcuts.end(), [&](const Shortcut& s) { return s.id == id; });
    };
    CHECK(shortcut_action_key(row("note"), false) == "shortcut.note.action");
    CHECK(shortcut_action_key(row("note"), true) == "shortcut.note.action.browser");
    for (const char* code : {"en", "zh-Hans", "zh-Hant"}) {
        CAPTURE(code);
        REQUIRE(attn::text::find_language(code) != nullptr);
        CHECK(attn::text::find_language(code)->has_own("shortcut.note.action.browser"));
    }
    // A row without a browser text reads the same in both builds.
    CHECK(shortcut_action_key(row("play"), true) == "shortcut.play.action");
}

TEST_CASE("playback keys move the lesson; window keys come back as actions") {
    attn::gui::Playback pb;
    pb.set_step_count(17);
    SUBCASE("arrows, pages, Home and End move through the steps") {
        key_actions({{GLFW_KEY_END, 0}}, pb, false);
        CHECK(pb.step() == 16);
        key_actions({{GLFW_KEY_HOME, 0}}, pb, false);
        CHECK(pb.step() == 0);
        const Actions none = key_actions({{GLFW_KEY_RIGHT, 0}, {GLFW_KEY_PAGE_DOWN, 0}}, pb, false);
        CHECK(pb.step() == 2);
        CHECK_FALSE(none.toggle_presentation);
        CHECK_FALSE(none.quit);
        key_actions({{GLFW_KEY_SPACE, 0}}, pb, false);
        CHECK(pb.playing());
    }
    SUBCASE("P, F, Escape and Ctrl+Q are asked of the window") {
        CHECK(key_actions({{GLFW_KEY_P, 0}}, pb, false).toggle_presentation);
        CHECK(key_actions({{GLFW_KEY_F, 0}}, pb, false).toggle_fullscreen);
        const Actions escape = key_actions({{GLFW_KEY_ESCAPE, 0}}, pb, true);
        CHECK(escape.toggle_presentation);
        CHECK(escape.leave_fullscreen);
        CHECK_FALSE(key_actions({{GLFW_KEY_ESCAPE, 0}}, pb, false).toggle_presentation);
        CHECK(key_actions({{GLFW_KEY_Q, GLFW_MOD_CONTROL}}, pb, false).quit);
        CHECK_FALSE(key_actions({{GLFW_KEY_Q, 0}}, pb, false).quit);  // a plain Q is not quit
        CHECK(pb.step() == 0);
    }
}

namespace {

// The rows of the README table whose header line starts with `header`: each row's first
// cell, with the "..." rows that continue the row above left out.
std::vector<std::string> readme_key_rows(const std::string& readme, const std::string& header) {
    std::vector<std::string> rows;
    size_t at = readme.find(header);
    if (at == std::string::npos) return rows;
    at = readme.find('\n', readme.find('\n', at) + 1) + 1;  // past the header and its |---| line
    while (at < readme.size() && readme.compare(at, 2, "| ") == 0) {
        const size_t end = readme.find('\n', at);
        const std::string line = readme.substr(at, end - at);
        const std::string first = line.substr(2, line.find(" | ") - 2);
        if (first.rfind("...", 0) != 0) rows.push_back(first);
        at = end + 1;
    }
    return rows;
}

std::string first_word(const std::string& cell) {
    std::string word;
    for (const char c : cell) {
        if (std::isalnum(static_cast<unsigned char>(c))) word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        else if (!word.empty()) break;
    }
    return word;
}

}  // namespace

// Issue 28 item 22: Help > Keyboard lacked the README's Follow and Tour rows.
TEST_CASE("Help > Keyboard has a row for every row of the README's two key tables") {
    const std::string readme = attn::testing::slurp(std::string(ATTNVIZ_SOURCE_DIR) + "/README.md");
    REQUIRE(!readme.empty());
    const std::vector<std::string> window = readme_key_rows(readme, "| key | action |");
    std::vector<std::string> presenting = readme_key_rows(readme, "| key | while presenting |");
    REQUIRE(window.size() > 10);
    REQUIRE(presenting.size() > 5);
    // Presenting's Right and Left are the window's own rows, with another meaning.
    presenting.erase(std::remove_if(presenting.begin(), presenting.end(),
                                    [&](const std::string& row) { return std::find(window.begin(), window.end(), row) != window.end(); }),
                     presenting.end());
    std::vector<std::string> rows = window;
    rows.insert(rows.end(), presenting.begin(), presenting.end());
    CHECK(rows.size() == kShortcuts.size());
    std::set<std::string> listed;
    for (const std::string& word : listed_words()) listed.insert(first_word(word));
    for (const std::string& row : rows) {
        CAPTURE(row);
        CHECK(listed.count(first_word(row)) == 1);
    }
}
