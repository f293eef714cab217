// The field table (core/config_fields.h): every field survives the manifest and the
// command line, and every option has its help text. The settings file's round trip is in
// tests/gui/test_gui_settings_fields.cpp.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <string>

#include "app/options/config_options.h"
#include "app/io/trace_writer.h"
#include "app/text/languages.h"
#include "tests/config_field_samples.h"

using namespace attn;
using config_samples::Sample;

namespace {

bool same_value(const ConfigField& field, const AttentionConfig& a, const AttentionConfig& b) {
    return field_value(field, a) == field_value(field, b);
}

// What `attnviz trace <args>` builds from the arguments (CLI11 and resolve_problem).
Result<io::Problem> problem_from(std::vector<std::string> args) {
    CLI::App app;
    cli::ConfigOptions options;
    cli::add_config_options(app, options);
    std::reverse(args.begin(), args.end());  // CLI11 takes a vector last argument first
    app.parse(args);
    return cli::resolve_problem(options);
}

}  // namespace

TEST_CASE("the field table names each field, option and key once") {
    std::set<std::string> names, options, settings, manifest, exported;
    for (const ConfigField& field : config_fields()) {
        CAPTURE(field.name);
        CHECK(names.insert(field.name).second);
        CHECK(&config_field(field.name) == &field);
        if (*field.option) CHECK(options.insert(field.long_option()).second);
        if (*field.settings_key) CHECK(settings.insert(field.settings_key).second);
        if (*field.manifest_key) CHECK(manifest.insert(field.manifest_key).second);
        if (*field.export_key) CHECK(exported.insert(field.export_key).second);
        // Every option has its --help text in English; a field without an option has none.
        CHECK((*field.option == '\0') == (*field.help_key == '\0'));
        if (*field.help_key) CHECK(text::english().has_own(field.help_key));
    }
    CHECK(names.size() > 30);
}

TEST_CASE("every field survives the manifest: configuration -> manifest -> configuration") {
    config_samples::check_every_field_is_off_its_default([](const ConfigField& f) { return f.manifest_key; });
    for (const Sample& sample : config_samples::samples()) {
        CAPTURE(sample.why);
        const nlohmann::json written = io::config_to_json(sample.config);
        const Result<AttentionConfig> back = io::config_from_json(written);
        REQUIRE_MESSAGE(back.ok(), back.error());
        CHECK(config_samples::changed_fields(sample.config, back.value(), [](const ConfigField& f) { return f.manifest_key; },
                                             same_value) == "");
        CHECK(io::config_to_json(back.value()) == written);
    }
}

TEST_CASE("a manifest value of the wrong kind is refused with the field's name") {
    nlohmann::json written = io::config_to_json(AttentionConfig{});
    written["num_heads"] = "four";
    const Result<AttentionConfig> back = io::config_from_json(written);
    REQUIRE_FALSE(back.ok());
    CHECK(back.error().find("num_heads") != std::string::npos);
    written = io::config_to_json(AttentionConfig{});
    written["rope_style"] = "sideways";
    CHECK_FALSE(io::config_from_json(written).ok());
}

TEST_CASE("every field survives the command line: configuration -> options -> configuration") {
    config_samples::check_every_field_is_off_its_default([](const ConfigField& f) { return f.option; });
    for (const Sample& sample : config_samples::samples()) {
        const std::vector<std::string> args = cli::command_line_of(sample.config);
        std::string line;
        for (const std::string& arg : args) line += arg + " ";
        CAPTURE(sample.why);
        CAPTURE(line);
        const Result<io::Problem> problem = problem_from(args);
        REQUIRE_MESSAGE(problem.ok(), problem.error());
        CHECK(config_samples::changed_fields(sample.config, problem->config, [](const ConfigField& f) { return f.option; },
                                             same_value) == "");
    }
}

TEST_CASE("every field the window draws from its row is a plain field with its catalogue keys") {
    // The controls' sections name their plain fields (field_control.h); read the names from
    // the sources, so a misspelt or unworded one fails here instead of in the window.
    std::set<std::string> drawn;
    const std::regex list(R"re(field_controls\(session, \{([^}]*)\}\))re"),
        single(R"re(config_field\("([a-z_]+)"\))re"), quoted(R"re("([a-z_]+)")re");
    for (const auto& entry : std::filesystem::directory_iterator(std::filesystem::path(ATTNVIZ_SOURCE_DIR) / "app/gui/views/controls")) {
        std::ifstream in(entry.path());
        const std::string source((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
        for (std::sregex_iterator it(source.begin(), source.end(), single), end; it != end; ++it) drawn.insert((*it)[1]);
        for (std::sregex_iterator it(source.begin(), source.end(), list), end; it != end; ++it) {
            const std::string names = (*it)[1];
            for (std::sregex_iterator q(names.begin(), names.end(), quoted); q != end; ++q) drawn.insert((*q)[1]);
        }
    }
    CHECK(drawn.size() >= 18);  // the sizes, the scores, RoPE, projections, extras and precision
    const text::Catalogue& english = text::english();
    for (const ConfigField& field : config_fields()) {
        if (!drawn.count(field.name)) continue;
        const std::string key = std::string("controls.") + field.name;
        CAPTURE(key);
        drawn.erase(field.name);
        const bool flag = std::holds_alternative<bool AttentionConfig::*>(field.member);
        const bool choice = std::holds_alternative<DType AttentionConfig::*>(field.member) ||
                            std::holds_alternative<RopeStyle AttentionConfig::*>(field.member);
        CHECK((choice || english.has_own(key)));  // an enumeration's radio buttons name only its values
        CHECK((flag || field.saved_range.given()));  // a number's or an enumeration's control has a range
        if (std::holds_alternative<DType AttentionConfig::*>(field.member)) {
            for (int i = static_cast<int>(field.saved_range.lo); i <= static_cast<int>(field.saved_range.hi); ++i)
                CHECK(english.has_own(key + "." + to_string(static_cast<DType>(i))));
        }
        if (std::holds_alternative<RopeStyle AttentionConfig::*>(field.member)) {
            for (int i = static_cast<int>(field.saved_range.lo); i <= static_cast<int>(field.saved_range.hi); ++i)
                CHECK(english.has_own(key + "." + to_string(static_cast<RopeStyle>(i))));
        }
    }
    CHECK_MESSAGE(drawn.empty(), "not a row of the field table: " << (drawn.empty() ? std::string() : *drawn.begin()));
}
