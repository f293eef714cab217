// settings.ini holds the configuration's fields as the field table says
// (core/config_fields.h): every field with a settings key comes back from the file, and
// the window's save and restore carry them all.
#include <doctest/doctest.h>

#include <string>

#include "app/gui/state/app_state.h"
#include "app/gui/state/settings.h"
#include "tests/config_field_samples.h"

using namespace attn;
using namespace attn::gui;
using config_samples::Sample;

namespace {

bool same_text(const ConfigField& field, const AttentionConfig& a, const AttentionConfig& b) {
    return format_field(field, a) == format_field(field, b);
}
const char* settings_key(const ConfigField& field) { return field.settings_key; }

}  // namespace

TEST_CASE("every field survives settings.ini: configuration -> settings -> configuration") {
    config_samples::check_every_field_is_off_its_default(settings_key);
    for (const Sample& sample : config_samples::samples()) {
        CAPTURE(sample.why);
        UiSettings saved;
        copy_saved_fields(sample.config, saved.config);
        Message problem;
        const UiSettings back = parse_settings(serialize_settings(saved), &problem);
        CHECK(problem.empty());
        CHECK(config_samples::changed_fields(sample.config, back.config, settings_key, same_text) == "");
        // What the window restores from it is the same configuration.
        AttentionConfig restored;
        copy_saved_fields(back.config, restored);
        CHECK(config_samples::changed_fields(sample.config, restored, settings_key, same_text) == "");
    }
}

TEST_CASE("the window saves and restores the configuration through settings.ini") {
    const Sample rope = config_samples::samples()[1];  // self-attention, so the sentence can set L
    AppState before;
    before.session.config = rope.config;
    before.session.sentence = "one two three four five six";
    REQUIRE(follow_sentence(before.session));
    store_config_in_settings(before);
    AppState after;
    after.settings = parse_settings(serialize_settings(before.settings));
    REQUIRE(after.settings.has_session);
    CHECK(english(restore_saved_session(after)) == "");
    CHECK(config_samples::changed_fields(rope.config, after.session.config, settings_key, same_text) == "");
    CHECK(after.session.sentence == before.session.sentence);
}
