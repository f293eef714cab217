// Fuzz harness: the settings file parser (app/gui/state/settings.cpp).
#include <cmath>
#include <string>

#include "app/gui/state/settings.h"
#include "tests/fuzz/fuzz_check.h"
#include "tests/fuzz/fuzz_entries.h"

namespace attn::fuzz {

namespace {

bool in_range(float v, float lo, float hi) { return std::isfinite(v) && v >= lo && v <= hi; }
bool in_range(int v, int lo, int hi) { return v >= lo && v <= hi; }

}  // namespace

int settings_entry(const uint8_t* data, size_t size) {
    using gui::UiSettings;
    const std::string text(reinterpret_cast<const char*>(data), size);
    Message problem;
    const UiSettings s = gui::parse_settings(text, &problem);
    // Whatever the file says, the window starts with values it can use.
    FUZZ_CHECK(in_range(s.ui_scale, 0.75f, 2.5f) && in_range(s.speed, 0.1f, 8.0f));
    FUZZ_CHECK(in_range(s.window_width, 320, 16384) && in_range(s.window_height, 240, 16384));
    FUZZ_CHECK(in_range(s.left_panel_em, 10.0f, 60.0f) && in_range(s.right_panel_em, 10.0f, 60.0f));
    const AttentionConfig& c = s.config;
    FUZZ_CHECK(in_range(s.explain_fraction, 0.15f, 0.85f) && in_range(c.dropout, 0.0f, 0.9f));
    FUZZ_CHECK(in_range(c.seq_len, 1, 1024) && in_range(c.hidden_dim, 1, 1024) && in_range(c.num_heads, 1, 64));
    FUZZ_CHECK(in_range(c.batch, 1, 8) && in_range(static_cast<int>(c.mask), 0, 2) && in_range(static_cast<int>(c.variant), 0, 2));
    // A valid length of 0 is a length (every key of the item masked), kept since the settings store it.
    FUZZ_CHECK(in_range(s.valid_length, 0, 1024) && c.seed <= 1000000);
    FUZZ_CHECK(s.sentence.size() <= 4096 && s.sentence.find('\n') == std::string::npos);
    // The status-bar message is one short line.
    FUZZ_CHECK(english(problem).size() < 200 && english(problem).find('\n') == std::string::npos);
    // Saving what was read and reading it again changes nothing and reports nothing.
    const std::string saved = gui::serialize_settings(s);
    Message problem_again;
    const UiSettings again = gui::parse_settings(saved, &problem_again);
    FUZZ_CHECK(problem_again.empty());
    FUZZ_CHECK(gui::serialize_settings(again) == saved);
    return 0;
}

}  // namespace attn::fuzz

#ifdef ATTNVIZ_LIBFUZZER
extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) { return attn::fuzz::settings_entry(data, size); }
#endif
