#include <doctest/doctest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "app/gui/display/weight_focus.h"

using namespace attn;
using namespace attn::gui;

namespace {

constexpr float kNegInf = -std::numeric_limits<float>::infinity();

// A (1, H, L, S) tensor filled from `values` in C order.
Tensor weights_tensor(int heads, int rows, int cols, const std::vector<float>& values) {
    Tensor t = Tensor::zeros({1, heads, rows, cols}, {"B", "H", "L", "S"});
    REQUIRE(static_cast<int64_t>(values.size()) == t.numel());
    for (size_t i = 0; i < values.size(); ++i) t.mutable_data()[i] = values[i];
    return t;
}

}  // namespace

TEST_CASE("a uniform row has entropy 1 and a one-hot row entropy 0") {
    const std::vector<float> uniform(4, 0.25f);
    const RowFocus u = row_focus(uniform.data(), nullptr, 4);
    CHECK(u.counted);
    CHECK(u.keys == 4);
    CHECK(u.max_weight == doctest::Approx(0.25));
    CHECK(u.entropy == doctest::Approx(1.0));
    const std::vector<float> one_hot{0.0f, 1.0f, 0.0f};
    const RowFocus o = row_focus(one_hot.data(), nullptr, 3);
    CHECK(o.counted);
    CHECK(o.max_weight == doctest::Approx(1.0));
    CHECK(o.entropy == doctest::Approx(0.0));
}

TEST_CASE("the entropy of (1/2, 1/4, 1/4) is 1.5 bits out of log2(3)") {
    const std::vector<float> row{0.5f, 0.25f, 0.25f};
    const RowFocus r = row_focus(row.data(), nullptr, 3);
    CHECK(r.max_weight == doctest::Approx(0.5));
    CHECK(r.entropy == doctest::Approx(1.5 / std::log2(3.0)).epsilon(1e-6));
}

TEST_CASE("masked keys are not counted as keys the row could spread over") {
    const std::vector<float> row{0.5f, 0.5f, 0.0f, 0.0f};
    const std::vector<float> scores{0.3f, 0.3f, kNegInf, kNegInf};
    const RowFocus masked = row_focus(row.data(), scores.data(), 4);
    CHECK(masked.keys == 2);
    CHECK(masked.entropy == doctest::Approx(1.0));  // uniform over the two it can see
    const RowFocus unmasked = row_focus(row.data(), nullptr, 4);
    CHECK(unmasked.keys == 4);
    CHECK(unmasked.entropy == doctest::Approx(0.5));  // log 2 / log 4
}

TEST_CASE("rows with one visible key or nothing left are reported but not counted") {
    const std::vector<float> first{1.0f, 0.0f, 0.0f};
    const std::vector<float> causal_first{0.0f, kNegInf, kNegInf};
    const RowFocus one = row_focus(first.data(), causal_first.data(), 3);
    CHECK(one.keys == 1);
    CHECK_FALSE(one.counted);
    const std::vector<float> all_dropped{0.0f, 0.0f, 0.0f};
    CHECK_FALSE(row_focus(all_dropped.data(), nullptr, 3).counted);
}

TEST_CASE("a row after dropout is renormalised before its entropy; its max keeps the rescale") {
    // p = 0.5 dropout of (0.5, 0.25, 0.25): the first weight dropped, the others doubled.
    const std::vector<float> row{0.0f, 0.5f, 0.5f};
    const RowFocus r = row_focus(row.data(), nullptr, 3);
    CHECK(r.max_weight == doctest::Approx(0.5));
    CHECK(r.entropy == doctest::Approx(std::log(2.0) / std::log(3.0)));
}

TEST_CASE("per-head means cover the counted rows of the chosen batch item") {
    // Head 0: a focused row (0.9, 0.1) and a uniform one; head 1: two uniform rows.
    const Tensor w = weights_tensor(2, 2, 2, {0.9f, 0.1f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f});
    const std::vector<HeadFocus> heads = weight_focus(w, nullptr, 0);
    REQUIRE(heads.size() == 2u);
    const double h09 = -(0.9 * std::log(0.9) + 0.1 * std::log(0.1)) / std::log(2.0);
    CHECK(heads[0].counted_rows == 2);
    CHECK(heads[0].rows[0].entropy == doctest::Approx(h09).epsilon(1e-6));
    CHECK(heads[0].mean_max == doctest::Approx((0.9 + 0.5) / 2));
    CHECK(heads[0].mean_entropy == doctest::Approx((h09 + 1.0) / 2).epsilon(1e-6));
    CHECK(heads[1].mean_entropy == doctest::Approx(1.0));
    CHECK(head_focus_line(heads[1]) == "head 1: mean max 0.50, entropy 1.00 (near uniform)");
    CHECK(std::string(focus_word(0.2f)) == "focused");
    CHECK(std::string(focus_word(0.6f)) == "spread");
}

TEST_CASE("a causal mask leaves the first query row out of the head's means") {
    const Tensor w = weights_tensor(1, 2, 2, {1.0f, 0.0f, 0.75f, 0.25f});
    const Tensor s = weights_tensor(1, 2, 2, {0.1f, kNegInf, 0.2f, 0.1f});
    const std::vector<HeadFocus> heads = weight_focus(w, &s, 0);
    REQUIRE(heads.size() == 1u);
    CHECK(heads[0].counted_rows == 1);
    CHECK(heads[0].mean_max == doctest::Approx(0.75));
    CHECK_FALSE(heads[0].rows[0].counted);
}

TEST_CASE("weight focus refuses shapes it cannot read instead of guessing") {
    const Tensor flat = Tensor::zeros({4, 4}, {"L", "S"});
    CHECK(weight_focus(flat, nullptr, 0).empty());
    const Tensor w = weights_tensor(1, 2, 2, {0.5f, 0.5f, 0.5f, 0.5f});
    CHECK(weight_focus(w, nullptr, 3).empty());
    const Tensor other = Tensor::zeros({1, 1, 3, 3}, {"B", "H", "L", "S"});
    CHECK(weight_focus(w, &other, 0).size() == 1u);  // a mismatched mask is ignored
    CHECK(head_focus_line(HeadFocus{}) == "head 0: no row to measure");
}
