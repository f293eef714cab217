// The model overview's numbers and geometry (app/gui/display/overview.h): a thumbnail per
// layer and head, each one's peakedness and picture against a direct reading of the
// trace, the heads' mean, and a grid whose cells and labels never overlap.
#include <doctest/doctest.h>

#include <algorithm>
#include <cmath>
#include <vector>

#include "app/gui/compute/compute_worker.h"
#include "app/gui/display/overview.h"
#include "app/io/model_problem.h"
#include "core/attention.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using attn::test_configs::sized;

namespace {

struct Computed {
    io::Problem problem;
    ComputeResult result;
};

// tiny-lm on a sentence, computed as the window does with View > Overview open.
Computed tiny_lm(int layer) {
    Result<io::Problem> problem = io::build_model_problem("tiny-lm", layer, "the dog saw the cat and the cat ran");
    REQUIRE_MESSAGE(problem.ok(), problem.error());
    Computed c{problem.value(), ComputeWorker::compute(problem.value(), 0, 512, std::nullopt, {}, true)};
    REQUIRE(c.result.error.empty());
    REQUIRE(c.result.overview);
    return c;
}

// Weight (query q, key k) of head h, batch item b, read from a (B, H, L, S) step by index.
float weight_at(const Tensor& t, int b, int h, int q, int k) { return t.at({b, h, q, k}); }

// The trace's own masked keys: -inf in the (B, H, L, S) mask step (no mask step: none).
bool hidden(const Trace& trace, int b, int h, int q, int k) {
    const Step* mask = trace.find(StepId::AttnMasked);
    return mask && std::isinf(mask->tensor.at({b, h, q, k}));
}

// Mean largest weight and mean normalised entropy over the rows with two or more visible
// keys, straight from the trace with plain loops.
std::pair<double, double> direct_peakedness(const Trace& trace, int b, int h) {
    const Tensor& w = trace.find(StepId::AttnWeights)->tensor;
    double max_sum = 0, entropy_sum = 0;
    int rows = 0;
    for (int q = 0; q < w.dim(2); ++q) {
        std::vector<double> p;
        for (int k = 0; k < w.dim(3); ++k)
            if (!hidden(trace, b, h, q, k)) p.push_back(weight_at(w, b, h, q, k));
        if (p.size() < 2) continue;
        double sum = 0, h_row = 0;
        for (double v : p) sum += v;
        for (double v : p)
            if (v > 0) h_row -= (v / sum) * std::log(v / sum);
        max_sum += *std::max_element(p.begin(), p.end());
        entropy_sum += h_row / std::log(static_cast<double>(p.size()));
        ++rows;
    }
    return {max_sum / rows, entropy_sum / rows};
}

bool overlap(const Rect& a, const Rect& b) {
    return a.x < b.right() - 0.01f && b.x < a.right() - 0.01f && a.y < b.bottom() - 0.01f && b.y < a.bottom() - 0.01f;
}

Rect whole(const OverviewCell& c) { return Rect{c.title.x, c.title.y, c.picture.w, c.labels.bottom() - c.title.y}; }

}  // namespace

TEST_CASE("overview of tiny-lm: one thumbnail per layer and head, each the layer's own weights") {
    const Computed c = tiny_lm(1);
    const ModelSpec& spec = c.problem.model->spec;
    const OverviewGrid* grid = c.result.overview->grid_for(StepId::Norm);  // no weights on screen: attn_weights
    REQUIRE(grid);
    CHECK(grid->step == StepId::AttnWeights);
    CHECK(grid->layers == spec.layers);
    CHECK(grid->heads == spec.heads);
    CHECK(grid->thumbs.size() == static_cast<size_t>(spec.layers * spec.heads));
    CHECK(c.result.overview->shown_layer == 1);
    for (const OverviewThumb& t : grid->thumbs) {
        CAPTURE(t.ref.layer);
        CAPTURE(t.ref.head);
        const Trace& layer = c.problem.model_run->layers[static_cast<size_t>(t.ref.layer)].attention;
        const Tensor& w = layer.find(StepId::AttnWeights)->tensor;
        REQUIRE(t.weights.queries == w.dim(2));
        for (int q = 0; q < t.weights.queries; ++q)
            for (int k = 0; k < t.weights.keys; ++k) {
                CHECK(t.weights.weight(q, k) == weight_at(w, 0, t.ref.head, q, k));
                CHECK(t.weights.is_masked(q, k) == hidden(layer, 0, t.ref.head, q, k));
            }
    }
    // The layer on screen's thumbnails hold exactly the trace's weights.
    const Tensor& shown = c.result.trace->find(StepId::AttnWeights)->tensor;
    const OverviewThumb* t = grid->find(HeadRef{1, 2});
    REQUIRE(t);
    CHECK(t->weights.weight(3, 1) == weight_at(shown, 0, 2, 3, 1));
}

TEST_CASE("overview peakedness equals the mean max and entropy read directly from the trace") {
    const Computed c = tiny_lm(0);
    const OverviewGrid* grid = c.result.overview->grid_for(StepId::AttnWeights);
    REQUIRE(grid);
    for (const OverviewThumb& t : grid->thumbs) {
        CAPTURE(t.ref.layer);
        CAPTURE(t.ref.head);
        const Trace& layer = c.problem.model_run->layers[static_cast<size_t>(t.ref.layer)].attention;
        const auto [max_weight, entropy] = direct_peakedness(layer, 0, t.ref.head);
        CHECK(t.peak.counted_rows == t.weights.queries - 1);  // causal: the first query sees one key
        CHECK(t.peak.mean_max == doctest::Approx(max_weight).epsilon(1e-5));
        CHECK(t.peak.mean_entropy == doctest::Approx(entropy).epsilon(1e-4));
    }
}

TEST_CASE("overview: the card's claims sit under their heads and no other") {
    const Computed c = tiny_lm(0);
    const ModelSpec& spec = c.problem.model->spec;
    REQUIRE(!spec.head_claims.empty());
    const OverviewGrid* grid = c.result.overview->grid_for(StepId::AttnWeights);
    size_t claimed = 0;
    for (const OverviewThumb& t : grid->thumbs) {
        std::vector<std::string> card;  // every claim the card makes for this head, in order
        for (const HeadClaim& h : spec.head_claims)
            if (h.layer == t.ref.layer && h.head == t.ref.head) card.push_back(english(h.claim));
        std::vector<std::string> shown;
        for (const Message& m : t.claims) shown.push_back(english(m));
        CAPTURE(t.ref.layer);
        CAPTURE(t.ref.head);
        CHECK(shown == card);
        claimed += t.claims.size();
    }
    CHECK(claimed == spec.head_claims.size());  // layer 0 head 0 has two: both are under its map
}

TEST_CASE("overview: the mean of selected heads is the cell-by-cell mean of the traces' weights") {
    const Computed c = tiny_lm(0);
    const OverviewGrid* grid = c.result.overview->grid_for(StepId::AttnWeights);
    const std::vector<HeadRef> selected{{0, 1}, {1, 3}, {1, 0}};
    CHECK_FALSE(mean_of_heads(*grid, {{0, 1}}));  // one head is no mean
    const std::optional<OverviewThumb> mean = mean_of_heads(*grid, selected);
    REQUIRE(mean);
    const int L = mean->weights.queries;
    for (int q = 0; q < L; ++q)
        for (int k = 0; k < L; ++k) {
            double sum = 0;
            for (const HeadRef& ref : selected)
                sum += weight_at(c.problem.model_run->layers[static_cast<size_t>(ref.layer)].attention.find(StepId::AttnWeights)->tensor, 0,
                                 ref.head, q, k);
            CAPTURE(q);
            CAPTURE(k);
            CHECK(mean->weights.weight(q, k) == doctest::Approx(sum / 3.0).epsilon(1e-6));
            CHECK(mean->weights.is_masked(q, k) == (k > q));  // causal in every head
        }
    CHECK(mean->peak.counted_rows == L - 1);

    SUBCASE("the lines view's mean takes the selected heads of its own layer only") {
        const std::vector<HeadWeights> heads = head_weights(*c.result.trace, c.result.trace->index_of(StepId::AttnWeights), 0);
        CHECK_FALSE(mean_of_selected(heads, selected, 0));  // only head 1 of layer 0 is selected
        const std::optional<HeadWeights> lines_mean = mean_of_selected(heads, {{0, 1}, {0, 2}, {1, 2}}, 0);
        REQUIRE(lines_mean);
        CHECK(lines_mean->head == -1);
        CHECK(lines_mean->weight(4, 2) == doctest::Approx((heads[1].weight(4, 2) + heads[2].weight(4, 2)) / 2.0f));
    }
}

TEST_CASE("overview of a random configuration: the single layer's heads, for every weight step") {
    AttentionConfig config = sized(6, 16, 4);
    config.mask = MaskKind::Causal;
    config.average_weights = true;
    config.dropout = 0.25f;
    Result<Trace> trace = run_attention(config);
    REQUIRE_MESSAGE(trace.ok(), trace.error());
    const ModelOverview overview = build_overview({&trace.value()}, 0, 0);
    const OverviewGrid* weights = overview.grid_for(StepId::AttnWeights);
    REQUIRE(weights);
    CHECK(weights->layers == 1);
    CHECK(weights->thumbs.size() == 4);
    const OverviewGrid* mean = overview.grid_for(StepId::AttnWeightsAvg);
    REQUIRE(mean);
    CHECK(mean->thumbs.size() == 1);
    CHECK(mean->thumbs.front().ref.head == -1);
    const OverviewGrid* dropped = overview.grid_for(StepId::AttnDropped);
    REQUIRE(dropped);
    CHECK(dropped->step == StepId::AttnDropped);
    CHECK(dropped->value_max > 1.0f);  // survivors rescaled by 1 / (1 - p)
    CHECK(dropped->value_max == dropped->largest);
    CHECK(weights->value_max == 1.0f);  // probabilities on their honest 0..1 ...
    CHECK(weights->top(false) == 1.0f);
    float largest = 0;
    for (const OverviewThumb& t : weights->thumbs) largest = std::max(largest, *std::max_element(t.weights.weights.begin(), t.weights.weights.end()));
    CHECK(weights->largest == largest);
    CHECK(weights->top(true) == weights->largest);  // ... or stretched to the data when asked
    for (const OverviewThumb& t : weights->thumbs) {
        const auto [max_weight, entropy] = direct_peakedness(trace.value(), 0, t.ref.head);
        CHECK(t.peak.mean_max == doctest::Approx(max_weight).epsilon(1e-5));
        CHECK(t.peak.mean_entropy == doctest::Approx(entropy).epsilon(1e-4));
    }
    // The head mean step (of dropout's output, as PyTorch averages what it returns) is the
    // mean of the dropped heads' pictures (pooling is linear).
    std::vector<HeadRef> all;
    for (const OverviewThumb& t : dropped->thumbs) all.push_back(t.ref);
    const std::optional<OverviewThumb> of_heads = mean_of_heads(*dropped, all);
    REQUIRE(of_heads);
    for (size_t i = 0; i < of_heads->picture.values.size(); ++i)
        CHECK(of_heads->picture.values[i] == doctest::Approx(mean->thumbs.front().picture.values[i]).epsilon(1e-5));
}

TEST_CASE("overview thumbnails pool long sentences into blocks whose mean is the map's mean") {
    HeadWeights hw{0, 100, 70, {}, {}};
    hw.weights.resize(100 * 70);
    for (size_t i = 0; i < hw.weights.size(); ++i) hw.weights[i] = static_cast<float>(i % 13) / 13.0f;
    const ThumbPicture pic = pool_weights(hw, 48);
    CHECK(pic.rows == 48);
    CHECK(pic.cols == 48);
    // Block sizes differ by one cell at most; weight each block by its cells.
    double pooled = 0, direct = 0;
    for (int r = 0; r < 48; ++r)
        for (int c = 0; c < 48; ++c) {
            const int rows = (r + 1) * 100 / 48 - r * 100 / 48, cols = (c + 1) * 70 / 48 - c * 70 / 48;
            pooled += static_cast<double>(pic.values[static_cast<size_t>(r * 48 + c)]) * rows * cols;
        }
    for (float v : hw.weights) direct += v;
    CHECK(pooled == doctest::Approx(direct).epsilon(1e-5));
    // A short sentence keeps one block per cell.
    HeadWeights small{0, 2, 3, {0.1f, 0.2f, 0.7f, 0.5f, 0.5f, 0.0f}, {0, 0, 0, 0, 0, 1}};
    const ThumbPicture same = pool_weights(small, 48);
    CHECK(same.values == small.weights);
    CHECK(same.masked == small.masked);
}

TEST_CASE("overview layout: every thumbnail placed, none overlapping, labels shrinking before they go") {
    OverviewStyle style;
    style.font_px = 13;
    style.min_font_px = 9;
    struct Case {
        int layers, heads;
        bool mean;
        Rect area;
    };
    const Case cases[] = {
        {2, 4, false, {0, 0, 1280, 600}},  // tiny-lm at 1280x720
        {2, 4, true, {0, 0, 1000, 640}},   // at 1024x768, with the mean
        {1, 8, true, {10, 40, 1880, 960}}, // a random configuration at 1920x1080
        {4, 16, false, {0, 0, 1000, 640}}, // many heads: smaller type, fewer lines
        {1, 32, false, {0, 0, 300, 200}},  // a narrow window: bare pictures
    };
    for (const Case& c : cases) {
        CAPTURE(c.layers);
        CAPTURE(c.heads);
        const OverviewLayout lay = overview_layout(c.layers, c.heads, c.mean, c.area, style);
        REQUIRE(lay.cells.size() == static_cast<size_t>(c.layers * c.heads + (c.mean ? 1 : 0)));
        CHECK(lay.font_px >= style.min_font_px - 0.01f);
        CHECK(lay.font_px <= style.font_px);
        for (size_t i = 0; i < lay.cells.size(); ++i) {
            const Rect a = whole(lay.cells[i]);
            CHECK(a.x >= c.area.x - 0.01f);
            CHECK(a.y >= c.area.y - 0.01f);
            CHECK(a.right() <= c.area.right() + 0.01f);
            CHECK(a.bottom() <= c.area.bottom() + 0.01f);
            CHECK(lay.cells[i].picture.w == lay.cells[i].picture.h);
            for (size_t j = i + 1; j < lay.cells.size(); ++j) CHECK_FALSE(overlap(a, whole(lay.cells[j])));
        }
        CHECK(lay.cells.back().thumb == (c.mean ? -1 : c.layers * c.heads - 1));
        // The cell under a picture's centre is that cell.
        const Rect& p = lay.cells.front().picture;
        CHECK(cell_at(lay, p.x + p.w * 0.5f, p.y + p.h * 0.5f) == 0);
    }
    const OverviewLayout roomy = overview_layout(2, 4, false, {0, 0, 1280, 600}, style);
    CHECK(roomy.label_lines == style.wanted_lines);
    CHECK(roomy.font_px == style.font_px);
    CHECK(roomy.rows == 2);
    CHECK(roomy.columns == 4);
    const OverviewLayout crowded = overview_layout(4, 16, false, {0, 0, 1000, 640}, style);
    CHECK(crowded.label_lines < style.wanted_lines);
    const OverviewLayout narrow = overview_layout(1, 32, false, {0, 0, 300, 200}, style);
    CHECK(narrow.label_lines == 0);
    CHECK(cell_at(narrow, -5, -5) == -1);
}
