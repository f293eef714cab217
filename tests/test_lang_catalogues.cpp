// Every translated catalogue (assets/lang/*.json other than en.json) against English:
// the same keys, and in each value exactly the named parameters English uses, so a
// translation can neither drop a number the code fills in nor ask for one it never gets.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <set>
#include <string>
#include <vector>

#include "app/text/text_template.h"

namespace fs = std::filesystem;

namespace {

const fs::path kLangDir = fs::path(ATTNVIZ_SOURCE_DIR) / "assets" / "lang";

// The file parsed, or a discarded value when it is not valid JSON.
nlohmann::json load_json(const fs::path& path) {
    std::ifstream in(path);
    return nlohmann::json::parse(in, nullptr, false);
}

// The {name} parameters of a template, by the catalogue's own rule (text_template.h),
// sorted and joined ("embed, heads") so a failure prints both sets readably.
std::string parameter_set(const std::string& pattern) {
    const std::vector<std::string> found = attn::text::template_parameters(pattern);
    const std::set<std::string> names(found.begin(), found.end());
    std::string joined;
    for (const std::string& name : names) joined += (joined.empty() ? "" : ", ") + name;
    return joined;
}

// Every catalogue in assets/lang except English itself, sorted for stable output.
std::vector<fs::path> translated_catalogues() {
    std::vector<fs::path> files;
    for (const auto& entry : fs::directory_iterator(kLangDir)) {
        if (entry.path().extension() == ".json" && entry.path().filename() != "en.json") {
            files.push_back(entry.path());
        }
    }
    std::sort(files.begin(), files.end());
    return files;
}

}  // namespace

TEST_CASE("every language has every key of en.json with exactly its parameters") {
    const nlohmann::json english = load_json(kLangDir / "en.json");
    REQUIRE(english.is_object());
    const std::vector<fs::path> files = translated_catalogues();
    REQUIRE_FALSE(files.empty());  // otherwise this test would check nothing

    for (const fs::path& file : files) {
        const std::string language = file.filename().string();
        CAPTURE(language);
        const nlohmann::json catalogue = load_json(file);
        REQUIRE(catalogue.is_object());  // valid JSON, a flat object of "key": "template"

        // Named copies, not structured bindings: clang 14 (the browser build's) cannot
        // capture a binding in CAPTURE's lambda.
        for (const auto& item : english.items()) {
            const std::string key = item.key();
            const nlohmann::json& english_value = item.value();
            CAPTURE(key);
            const auto found = catalogue.find(key);
            CHECK_MESSAGE(found != catalogue.end(), "a key of en.json is missing");
            if (found == catalogue.end()) continue;
            REQUIRE(found->is_string());
            const std::string expected = parameter_set(english_value.get<std::string>());
            const std::string translated = parameter_set(found->get<std::string>());
            CHECK(translated == expected);
        }
        for (const auto& item : catalogue.items()) {
            const std::string key = item.key();
            CAPTURE(key);
            CHECK_MESSAGE(english.contains(key), "a key English does not have (stale or misspelt)");
        }
    }
}
