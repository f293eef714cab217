// The lines view's geometry (app/gui/display/weight_lines.h): which pairs get a line, how
// wide and opaque, where the tokens sit, which token the mouse is on, and the setting.
#include <doctest/doctest.h>

#include <algorithm>
#include <set>
#include <string>
#include <tuple>
#include <vector>

#include "app/gui/display/weight_lines.h"
#include "app/gui/state/settings.h"
#include "core/attention.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using attn::test_configs::sized;

namespace {

// Two heads of (3, 4) weights; head 1 hides keys 2 and 3 from query 0 and key 3 from query 1.
std::vector<HeadWeights> two_heads() {
    HeadWeights a{0, 3, 4, {0.1f, 0.2f, 0.3f, 0.4f, 0.25f, 0.25f, 0.25f, 0.25f, 0.7f, 0.1f, 0.1f, 0.1f}, {}};
    HeadWeights b{1, 3, 4, {0.6f, 0.4f, 0.0f, 0.0f, 0.5f, 0.3f, 0.2f, 0.0f, 0.05f, 0.05f, 0.1f, 0.8f},
                  {0, 0, 1, 1, 0, 0, 0, 1, 0, 0, 0, 0}};
    return {a, b};
}

const Rect kArea{0, 0, 600, 300};

size_t unmasked_pairs(const std::vector<HeadWeights>& heads, TokenRef focus = {}) {
    size_t n = 0;
    for (const HeadWeights& hw : heads)
        for (int q = 0; q < hw.queries; ++q)
            for (int k = 0; k < hw.keys; ++k) {
                const bool touches = !focus.valid() || (focus.side == TokenRef::Side::Query ? q : k) == focus.index;
                n += !hw.is_masked(q, k) && touches ? 1 : 0;
            }
    return n;
}

Trace causal_trace(bool average, float dropout) {
    AttentionConfig c = sized(5, 8, 2);
    c.mask = MaskKind::Causal;
    c.average_weights = average;
    c.dropout = dropout;
    Result<Trace> t = run_attention(c);
    REQUIRE_MESSAGE(t.ok(), t.error());
    return std::move(t.value());
}

}  // namespace

TEST_CASE("lines: one line per unmasked (head, query, key) pair and none for masked pairs") {
    const std::vector<HeadWeights> heads = two_heads();
    const WeightLinesStyle style;
    const TokenColumns columns = token_columns(3, 4, kArea, style);
    const std::vector<WeightLine> lines = weight_lines(heads, columns, style);
    CHECK(lines.size() == unmasked_pairs(heads));
    CHECK(lines.size() == 24 - 3);
    std::set<std::tuple<int, int, int>> seen;
    for (const WeightLine& l : lines) {
        CAPTURE(l.head);
        CAPTURE(l.query);
        CAPTURE(l.key);
        CHECK(seen.insert({l.head, l.query, l.key}).second);
        CHECK_FALSE(heads[static_cast<size_t>(l.head)].is_masked(l.query, l.key));
        CHECK(l.weight == heads[static_cast<size_t>(l.head)].weight(l.query, l.key));
    }
}

TEST_CASE("lines: widths and opacities follow the weights' order, heavier lines drawn last") {
    const std::vector<HeadWeights> heads = two_heads();
    WeightLinesStyle style;
    style.min_width = 0.5f;
    style.max_width = 6.0f;
    const std::vector<WeightLine> lines = weight_lines(heads, token_columns(3, 4, kArea, style), style);
    REQUIRE(lines.size() > 2);
    for (size_t i = 1; i < lines.size(); ++i) {
        CAPTURE(i);
        CHECK(lines[i - 1].weight <= lines[i].weight);  // drawn lightest first
    }
    for (const WeightLine& a : lines)
        for (const WeightLine& b : lines) {
            if (a.weight < b.weight) {
                CHECK(a.width < b.width);
                CHECK(a.alpha < b.alpha);
            }
            CHECK(a.width >= style.min_width);
            CHECK(a.width <= style.max_width);
        }
}

TEST_CASE("lines: dropout's weights above 1 set the top of the width scale") {
    HeadWeights hw{0, 1, 2, {2.0f, 0.5f}, {}};
    const WeightLinesStyle style;
    const std::vector<WeightLine> lines = weight_lines({hw}, token_columns(1, 2, kArea, style), style);
    REQUIRE(lines.size() == 2);
    CHECK(lines.back().alpha == doctest::Approx(1.0f));
    CHECK(lines.front().alpha == doctest::Approx(0.25f));
}

TEST_CASE("lines: focusing a token keeps only its lines") {
    const std::vector<HeadWeights> heads = two_heads();
    const WeightLinesStyle style;
    const TokenColumns columns = token_columns(3, 4, kArea, style);
    SUBCASE("a query") {
        const TokenRef focus{TokenRef::Side::Query, 0};
        const std::vector<WeightLine> lines = weight_lines(heads, columns, style, focus);
        CHECK(lines.size() == unmasked_pairs(heads, focus));
        CHECK(lines.size() == 4 + 2);
        for (const WeightLine& l : lines) CHECK(l.query == 0);
    }
    SUBCASE("a key") {
        const TokenRef focus{TokenRef::Side::Key, 3};
        const std::vector<WeightLine> lines = weight_lines(heads, columns, style, focus);
        CHECK(lines.size() == unmasked_pairs(heads, focus));
        CHECK(lines.size() == 3 + 1);
        for (const WeightLine& l : lines) CHECK(l.key == 3);
    }
}

TEST_CASE("lines: the pointer finds the token of the column it is over") {
    const WeightLinesStyle style;
    const TokenColumns c = token_columns(3, 4, kArea, style);
    REQUIRE(c.query_x < c.key_x);
    const TokenRef q = token_at(c, c.query_x - 10.0f, c.query_y[2] + c.row_h * 0.3f);
    CHECK(q == TokenRef{TokenRef::Side::Query, 2});
    const TokenRef k = token_at(c, c.key_x + 10.0f, c.key_y[1] - c.row_h * 0.3f);
    CHECK(k == TokenRef{TokenRef::Side::Key, 1});
    CHECK_FALSE(token_at(c, (c.query_x + c.key_x) * 0.5f, c.query_y[0]).valid());  // between the columns
    CHECK_FALSE(token_at(c, c.query_x - 10.0f, kArea.bottom() + 5.0f).valid());   // outside
    CHECK_FALSE(token_at(c, c.query_x - c.label_band - 5.0f, c.query_y[0]).valid());  // left of the labels
}

TEST_CASE("lines: a short sentence in a wide area keeps its lines from going flat, centred") {
    WeightLinesStyle style;
    style.max_span_per_height = 1.5f;
    const TokenColumns c = token_columns(3, 3, Rect{100, 0, 2000, 300}, style);
    const float height = c.row_h * 3.0f;
    CHECK(c.key_x - c.query_x == doctest::Approx(1.5f * height));
    CHECK((c.query_x + c.key_x) * 0.5f == doctest::Approx(100.0f + 1000.0f));
    const TokenColumns narrow = token_columns(3, 3, Rect{0, 0, 300, 300}, style);
    CHECK(narrow.query_x - narrow.label_band >= -0.01f);  // labels stay inside
    CHECK(narrow.key_x + narrow.label_band <= 300.01f);
    style.number_band = 40;  // the focused token's numbers beyond the labels stay inside too
    const TokenColumns numbered = token_columns(3, 3, Rect{0, 0, 300, 300}, style);
    CHECK(numbered.query_x - numbered.label_band - 40.0f >= -0.01f);
    CHECK(numbered.key_x + numbered.label_band + 40.0f <= 300.01f);
}

TEST_CASE("lines: 64 tokens get thin lines and labels that skip without overlapping") {
    WeightLinesStyle style;
    style.font_px = 13;
    style.min_font_px = 9;
    const TokenColumns c = token_columns(64, 64, Rect{0, 0, 800, 400}, style);
    CHECK(c.labels.every > 1);
    CHECK(c.row_h * static_cast<float>(c.labels.every) >= c.labels.font_px);  // drawn labels are a font apart
    HeadWeights hw{0, 64, 64, std::vector<float>(64 * 64, 1.0f / 64.0f), {}};
    hw.weights[0] = 1.0f;
    const std::vector<WeightLine> lines = weight_lines({hw}, c, style);
    for (const WeightLine& l : lines) CHECK(l.width < c.row_h);  // neighbours do not merge
}

TEST_CASE("lines: numbers beside tokens skip rows that would overlap, the largest first") {
    const std::vector<float> y{0, 5, 10, 30, 32};
    const std::vector<float> priority{0.1f, 0.9f, 0.2f, 0.3f, 0.4f};
    const std::vector<int> rows = readable_rows(y, priority, 8.0f);
    CHECK(rows == std::vector<int>{1, 4});
    for (size_t i = 1; i < rows.size(); ++i) CHECK(y[static_cast<size_t>(rows[i])] - y[static_cast<size_t>(rows[i - 1])] >= 8.0f);
}

TEST_CASE("lines: while the step animates the queries' fans open top first and all land by its end") {
    const int queries = 6;
    for (int q = 0; q < queries; ++q) {
        CAPTURE(q);
        CHECK(fan_reach(0.0f, q, queries) == 0.0f);
        CHECK(fan_reach(1.0f, q, queries) == 1.0f);
        float before = 0.0f;
        for (float progress = 0.05f; progress <= 1.0f; progress += 0.05f) {
            const float reach = fan_reach(progress, q, queries);
            CHECK(reach >= before);  // a fan never folds back while the step plays
            before = reach;
        }
        for (const float progress : {0.3f, 0.6f})
            if (q > 0) CHECK(fan_reach(progress, q - 1, queries) >= fan_reach(progress, q, queries));  // top first
    }
    CHECK(fan_reach(0.3f, 0, queries) > fan_reach(0.3f, 1, queries));
    CHECK(fan_reach(0.3f, 1, queries) > fan_reach(0.3f, 2, queries));
    CHECK(fan_reach(0.5f, 0, 1) == 1.0f);  // one query opens over the first half
}

TEST_CASE("lines: several queries selected sum the weight each key receives, per head and as the heads' mean") {
    const std::vector<HeadWeights> heads = two_heads();
    const KeySums sums = key_sums(heads, {0, 1, 99});  // 99: no such query, ignored
    REQUIRE(sums.per_head.size() == 2);
    REQUIRE(sums.head_mean.size() == 4);
    for (size_t h = 0; h < 2; ++h)
        for (int k = 0; k < 4; ++k) {
            CAPTURE(h);
            CAPTURE(k);
            float expected = 0.0f;
            for (int q : {0, 1})
                if (!heads[h].is_masked(q, k)) expected += heads[h].weight(q, k);
            CHECK(sums.per_head[h][static_cast<size_t>(k)] == doctest::Approx(expected));
        }
    CHECK(sums.per_head[1][3] == 0.0f);  // masked from both selected queries in head 1
    for (int k = 0; k < 4; ++k)
        CHECK(sums.head_mean[static_cast<size_t>(k)] ==
              doctest::Approx((sums.per_head[0][static_cast<size_t>(k)] + sums.per_head[1][static_cast<size_t>(k)]) / 2.0f));
    // Every query selected: each head's sums add up to the number of queries (rows sum to 1).
    const KeySums all = key_sums({heads[0]}, {0, 1, 2});
    float total = 0.0f;
    for (float v : all.per_head[0]) total += v;
    CHECK(total == doctest::Approx(3.0f));
    CHECK(key_sums({}, {0}).per_head.empty());
}

TEST_CASE("lines: the weight steps are the step table's probability maps") {
    std::vector<std::string> names;
    for (StepId id : kAllStepIds)
        if (draws_weight_lines(id)) names.push_back(step_name(id));
    CHECK(names == std::vector<std::string>{"attn_weights", "attn_dropped", "attn_weights_avg"});  // record order
}

TEST_CASE("lines: a causal forward's weight steps have no line from a query to a later key") {
    for (const bool average : {false, true}) {
        const Trace trace = causal_trace(average, 0.2f);
        for (StepId id : kAllStepIds) {
            const int index = trace.index_of(id);
            if (index < 0 || !draws_weight_lines(id)) continue;
            CAPTURE(step_name(id));
            const std::vector<HeadWeights> heads = head_weights(trace, index, 0);
            REQUIRE_FALSE(heads.empty());
            CHECK(heads.size() == (step_info(id).dims.has(DimRole::Head) ? 2u : 1u));
            const WeightLinesStyle style;
            const std::vector<WeightLine> lines = weight_lines(heads, token_columns(5, 5, kArea, style), style);
            CHECK(lines.size() == heads.size() * 15);  // 5 * 6 / 2 visible pairs per head
            for (const WeightLine& l : lines) CHECK(l.key <= l.query);
        }
    }
}

TEST_CASE("lines: one chosen head, and none for a step that holds no weights") {
    const Trace trace = causal_trace(false, 0.0f);
    const int weights = trace.index_of(StepId::AttnWeights);
    REQUIRE(weights >= 0);
    const std::vector<HeadWeights> one = head_weights(trace, weights, 0, 1);
    REQUIRE(one.size() == 1);
    CHECK(one.front().head == 1);
    CHECK(head_weights(trace, weights, 0, 7).empty());
    CHECK(head_weights(trace, trace.index_of(StepId::AttnScores), 0).empty());
    CHECK(head_weights(trace, weights, 3).empty());  // no such batch item
}

TEST_CASE("lines: View > Weights as is kept in the settings by name") {
    UiSettings settings;
    CHECK(settings.weights_as == "heatmap");
    for (const WeightsAsRow& row : kWeightsAsRows) {
        settings.weights_as = row.name;
        const UiSettings back = parse_settings(serialize_settings(settings));
        CHECK(back.weights_as == row.name);
        CHECK(parse_weights_as(back.weights_as) == row.value);
        CHECK(std::string(weights_as_name(row.value)) == row.name);
    }
    Message problem;
    const UiSettings bad = parse_settings("weights_as = spaghetti\n", &problem);
    CHECK(bad.weights_as == "heatmap");
    CHECK_FALSE(problem.empty());
}
