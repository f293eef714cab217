#include <doctest/doctest.h>

#include <cmath>
#include <limits>

#include "app/gui/format.h"

using namespace attn::gui;

TEST_CASE("cell values fit their width and keep their sign") {
    CHECK(format_cell_value(0.4213f, 5) == "0.42");
    CHECK(format_cell_value(-0.4213f, 5) == "-0.42");
    CHECK(format_cell_value(-0.4213f, 4) == "-.42");
    CHECK(format_cell_value(12.5f, 4).size() <= 4u);
    CHECK(format_cell_value(123456.0f, 5).size() <= 5u);
    CHECK(format_cell_value(-0.001f, 5) == "0.00");
}

TEST_CASE("masked and broken values are spelled out") {
    CHECK(format_cell_value(-std::numeric_limits<float>::infinity()) == "-inf");
    CHECK(format_value(std::nanf("")) == "nan");
    CHECK(format_value(0.123456f) == "0.1235");
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
