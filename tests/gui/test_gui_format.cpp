#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "app/gui/display/format.h"

using namespace attn::gui;

// Parses a drawn cell back and checks it is the value rounded to its decimals.
static void check_drawn_number_is_right(float value, const std::string& text, int decimals) {
    CAPTURE(value);
    CAPTURE(text);
    REQUIRE_FALSE(text.empty());
    // The sign survives, except on a printed zero (-0.03 -> "0.0", never "-0.0").
    const bool printed_zero = text.find_first_not_of("-0.") == std::string::npos;
    CHECK((text[0] == '-') == (value < 0 && !printed_zero));
    const double step = std::pow(10.0, -decimals);
    CHECK(std::fabs(std::stod(text) - static_cast<double>(value)) <= step * 0.5 + 1e-6);
    const size_t dot = text.find('.');
    CHECK((dot == std::string::npos ? 0 : static_cast<int>(text.size() - dot - 1)) == decimals);
    if (dot != std::string::npos) CHECK(dot > (text[0] == '-' ? 1u : 0u));  // "0.32", never ".32"
}

TEST_CASE("a panel's numbers share one format and keep their sign") {
    // The cells the issue saw side by side: "0.0" for -0.03, "-.1" for -0.06, ".32", "1.1".
    const std::vector<float> panel = {-0.03f, -0.06f, 0.32f, 1.1f, -0.2f, 0.001f, -0.001f};
    for (int max_chars = 1; max_chars <= 7; ++max_chars) {
        CAPTURE(max_chars);
        const int decimals = choose_cell_decimals(panel.data(), panel.size(), max_chars);
        if (decimals < 0) continue;  // colours only
        for (float v : panel) {
            const std::string text = format_cell_fixed(v, decimals);
            CHECK(static_cast<int>(text.size()) <= max_chars);
            check_drawn_number_is_right(v, text, decimals);
        }
    }
    CHECK(choose_cell_decimals(panel.data(), panel.size(), 5) == 2);   // "-0.06"
    CHECK(choose_cell_decimals(panel.data(), panel.size(), 4) == 1);   // "-0.1"
    CHECK(choose_cell_decimals(panel.data(), panel.size(), 3) == -1);  // "-0.0" does not fit: nothing
    CHECK(format_cell_fixed(-0.03f, 1) == "0.0");  // a printed zero has no sign
    CHECK(format_cell_fixed(-0.001f, 2) == "0.00");
    CHECK(format_cell_fixed(-0.06f, 1) == "-0.1");
}

TEST_CASE("a finite mask fill neither hides the other numbers nor prints 39 digits") {
    // llama's masked scores: float32's lowest in the masked cells, ordinary scores beside them.
    const std::vector<float> scores = {-3.4028235e38f, 0.42f, -1.25f, -1e20f};
    CHECK(choose_cell_decimals(scores.data(), scores.size(), 5) == 2);
    CHECK(format_cell_fixed(-3.4028235e38f, 2) == "-3e+38");
    CHECK(format_cell_fixed(-1e20f, 2) == "-1e+20");
    CHECK_FALSE(is_fill_value(-123456.0f));
}

TEST_CASE("a number too wide for its cell is not drawn rather than cut") {
    const std::vector<float> big = {123456.0f, 1.0f};
    CHECK(choose_cell_decimals(big.data(), big.size(), 5) == -1);
    CHECK(choose_cell_decimals(big.data(), big.size(), 6) == 0);
    const std::vector<float> probabilities = {0.32f, 0.05f};
    CHECK(choose_cell_decimals(probabilities.data(), probabilities.size(), 3) == -1);  // not "0.3", "0.1"
    CHECK(format_cell_fixed(std::nanf(""), 2).empty());
    CHECK(format_cell_fixed(1.0f, -1).empty());
}

TEST_CASE("masked and broken values are spelled out") {
    const float minus_inf = -std::numeric_limits<float>::infinity();
    CHECK(format_cell_fixed(minus_inf, 2) == "-inf");
    const std::vector<float> scores = {0.5f, minus_inf};
    CHECK(choose_cell_decimals(scores.data(), scores.size(), 4) == 2);  // -inf does not decide the decimals
    CHECK(format_value(std::nanf("")) == "nan");
    CHECK(format_value(0.123456f) == "0.1235");
    CHECK(format_value(-0.0f) == "0");  // a zero weight times a negative value
    CHECK(format_value(-0.0004f) == "-0.0004");
}

TEST_CASE("shapes are written with their dimension names") {
    CHECK(format_shape({1, 4, 2, 3}, {"B", "L", "H", "d_h"}) == "(B=1, L=4, H=2, d_h=3)");
    CHECK(format_shape({5}, {}) == "(5)");
}

TEST_CASE("snapshot files are numbered with two digits and safe names") {
    CHECK(snapshot_file_name(3, "attn_scores") == "03_attn_scores.png");
    CHECK(snapshot_file_name(12, "a/b c") == "12_a_b_c.png");
}

TEST_CASE("long labels are clipped with a marker") {
    CHECK(clip_label("elephant", 5) == "elep~");
    CHECK(clip_label("cat", 5) == "cat");
    CHECK(clip_label("cat", 0).empty());
}

TEST_CASE("labels are clipped by characters, so a Chinese character is never cut") {
    CHECK(clip_label("小狗", 2) == "小狗");              // 6 bytes, 2 characters: fits
    CHECK(clip_label("我的GPU很快", 4) == "我的G~");
    CHECK(clip_label("貓咪", 1) == "貓");
}

TEST_CASE("inspector lines break at spaces, never inside a number") {
    const auto chars = [](const std::string& t) { return static_cast<float>(t.size()); };
    const auto lines = wrap_at_spaces("row 3 of input = 0.1756 and -0.0312 / sqrt(2)", 10.0f, chars);
    std::string rejoined;
    for (const std::string& line : lines) {
        CAPTURE(line);
        CHECK(line.find('.') != line.size() - 1);  // no line ends inside a number ("0.")
        rejoined += (rejoined.empty() ? "" : " ") + line;
    }
    CHECK(rejoined == "row 3 of input = 0.1756 and -0.0312 / sqrt(2)");
    bool whole = false;
    for (const std::string& line : lines) whole |= line.find("0.1756") != std::string::npos;
    CHECK(whole);
    // The "= 0.\n1756": ImGui's wrap broke after the point.
    const auto narrow = wrap_at_spaces("= 0.1756", 4.0f, chars);
    REQUIRE(narrow.size() == 2u);
    CHECK(narrow[1] == "0.1756");
}

TEST_CASE("a difference too wide for its cell prints as whole numbers of a power of ten, two digits for the largest") {
    // Compare mode's A − B at 1024x768 in presentation: "-0.48" needs 5 characters in 24 px cells.
    CHECK(scaled_exponent(0.4803f) == 2);
    CHECK(format_cell_scaled(-0.4803f, 2) == "-48");
    CHECK(format_cell_scaled(0.004f, 2) == "0");
    CHECK(format_cell_scaled(-0.004f, 2) == "0");  // never "-0"
    // bfloat16's scores: 0.006871 -> 69 (x 10000); the note says "69 = 0.0069".
    CHECK(scaled_exponent(0.006871f) == 4);
    CHECK(format_cell_scaled(0.006871f, 4) == "69");
    CHECK(format_cell_fixed(0.006871f, 4) == "0.0069");
    CHECK(format_power_of_ten(2) == "100");
    CHECK(format_power_of_ten(4) == "10000");
    CHECK(format_power_of_ten(8) == "1e+8");
    // Large differences keep their units (no "x 0.1"), and nothing for no difference.
    CHECK(scaled_exponent(150.0f) == 0);
    CHECK(scaled_exponent(0.0f) == 0);
    CHECK(format_cell_scaled(-std::numeric_limits<float>::infinity(), 2).empty());  // masked: hatching only
}
