#include <doctest/doctest.h>

#include <cstdlib>
#include <string>

#include "app/gui/export/export.h"
#include "app/gui/state/settings.h"
#include "core/attention.h"
#include "tests/test_configs.h"

using namespace attn::gui;
using attn::test_configs::sized;

TEST_CASE("settings survive a round trip through text") {
    UiSettings s;
    s.light_theme = true;
    s.ui_scale = 1.5f;
    s.sentence = "a b c";
    s.config.num_heads = 4;
    const UiSettings back = parse_settings(serialize_settings(s));
    CHECK(back.light_theme);
    CHECK(back.ui_scale == doctest::Approx(1.5f));
    CHECK(back.sentence == "a b c");
    CHECK(back.config.num_heads == 4);
}

TEST_CASE("bad settings keep defaults or are clamped") {
    const UiSettings s = parse_settings("ui_scale = banana\nseq_len = 99999\nunknown = 3\nno equals sign\n");
    CHECK(s.ui_scale == 1.0f);
    CHECK(s.config.seq_len == 1024);
}

TEST_CASE("the config folder follows XDG_CONFIG_HOME") {
    const char* before = std::getenv("XDG_CONFIG_HOME");
    const std::string saved = before ? before : "";
    setenv("XDG_CONFIG_HOME", "/tmp/attnviz_xdg_test", 1);
    CHECK(config_dir() == "/tmp/attnviz_xdg_test/attnviz");
    if (before) setenv("XDG_CONFIG_HOME", saved.c_str(), 1);
    else unsetenv("XDG_CONFIG_HOME");
}

TEST_CASE("a step exports as CSV with one matrix per leading index") {
    attn::AttentionConfig c = sized(2, 4, 2);
    const auto t = attn::run_attention(c);
    REQUIRE(t.ok());
    const attn::Step* heads = t->find(attn::StepId::QHeads);
    REQUIRE(heads != nullptr);  // (B=1, H=2, L=2, d_h=2)
    const std::string csv = step_csv(*heads);
    CHECK(csv.find("# B=0, H=0\nL\\d_h,0,1\n") != std::string::npos);
    size_t lines = 0;
    for (char ch : csv) lines += ch == '\n';
    CHECK(lines == 1u + 2u * (2u + 2u) + 1u);  // title, 2 blocks of label + header + 2 rows, a blank line between
    CHECK(csv.find("# B=0, H=1\nL\\d_h,0,1\n0,") != std::string::npos);
}

TEST_CASE("an unwritable export folder is refused with a message") {
    const attn::Status s = ensure_writable_dir("/proc/attnviz_cannot_be_here");
    CHECK_FALSE(s.ok());
    CHECK(s.error().find("attnviz_cannot_be_here") != std::string::npos);
}

TEST_CASE("dragged side panel sizes are saved and clamped when read back") {
    UiSettings s;
    s.left_panel_em = 31.5f;
    s.right_panel_em = 12.0f;
    s.explain_fraction = 0.3f;
    const UiSettings back = parse_settings(serialize_settings(s));
    CHECK(back.left_panel_em == doctest::Approx(31.5f));
    CHECK(back.right_panel_em == doctest::Approx(12.0f));
    CHECK(back.explain_fraction == doctest::Approx(0.3f));
    const UiSettings wild = parse_settings("left_panel_em = 500\nright_panel_em = -3\nexplain_fraction = 2\n");
    CHECK(wild.left_panel_em == 60.0f);
    CHECK(wild.right_panel_em == 10.0f);
    CHECK(wild.explain_fraction == doctest::Approx(0.85f));
}

TEST_CASE("the first-run hint is shown once: its dismissal is remembered") {
    UiSettings fresh;
    CHECK_FALSE(fresh.hint_seen);
    CHECK_FALSE(parse_settings("light_theme = 1\n").hint_seen);  // an older settings file
    UiSettings seen;
    seen.hint_seen = true;
    CHECK(parse_settings(serialize_settings(seen)).hint_seen);
    CHECK_FALSE(parse_settings("hint_seen = yes\n").hint_seen);  // unreadable keeps the default
}

TEST_CASE("the chosen language is saved; none chosen or a damaged code follows the system's locale") {
    UiSettings s;
    CHECK(s.language.empty());  // nothing picked in View > Language yet
    CHECK(parse_settings(serialize_settings(s)).language.empty());
    s.language = "zh-Hant";
    CHECK(parse_settings(serialize_settings(s)).language == "zh-Hant");
    attn::Message problem;
    CHECK(parse_settings("language = ../../etc/passwd\n", &problem).language.empty());
    CHECK_FALSE(problem.empty());
    attn::Message none;
    CHECK(parse_settings("language = \n", &none).language.empty());
    CHECK(none.empty());  // what an unchosen language is saved as
}
