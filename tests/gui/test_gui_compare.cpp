// Compare mode (View > Compare, state/compare.h): A − B is exactly zero where the two
// computations must agree (A against itself; split, stacked and fused projections are
// tested under several processors' cache sizes in tests/test_variant_equality.cpp),
// non-zero where they must not, steps of another shape are not
// subtracted, the inspector's three values are the two traces' cells, B's options go
// through the command line's parser, and each ready contrast sets up A and B as it says.
#include <doctest/doctest.h>

#include <cmath>

#include "app/options/compare_options.h"
#include "app/options/config_options.h"
#include "app/gui/display/compare_difference.h"
#include "app/gui/state/app_state.h"
#include "app/gui/state/compare_contrasts.h"
#include "app/text/languages.h"
#include "tests/gui/headless_imgui.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::test_configs;

namespace {

ComputeResult run(const AttentionConfig& c) { return testing::computed(c); }

// Largest |value| of every comparable step, by name.
std::vector<std::pair<std::string, float>> largest_by_step(const TraceDifference& d) {
    std::vector<std::pair<std::string, float>> out;
    for (size_t i = 0; i < d.comparable.size(); ++i)
        if (d.comparable[i] == Comparable::Yes) out.emplace_back(d.trace->steps[i].name(), largest_difference(d, static_cast<int>(i)));
    return out;
}

// An AppState in compare mode with A and B computed from two configurations.
AppState compared(const AttentionConfig& a, const AttentionConfig& b) {
    AppState state;
    state.session.config = a;
    accept_result(state, run(a), 0.0);
    start_compare(state);
    state.compare.b.config = b;
    accept_b_result(state.compare, run(b), 0.0);
    return state;
}

}  // namespace

TEST_CASE("A compared with itself differs by exactly 0 at every step") {
    const ComputeResult a = run(causal(sized(5, 8, 2)));
    REQUIRE(a.trace);
    const TraceDifference d = subtract_traces(*a.trace, *a.trace);
    REQUIRE(d.comparable.size() == a.trace->steps.size());
    for (const auto& [name, largest] : largest_by_step(d)) {
        CAPTURE(name);
        CHECK(largest == 0.0f);
    }
    CHECK(largest_by_step(d).size() == a.trace->steps.size());
}

TEST_CASE("scaled against unscaled scores differ, and the difference is A - B cell by cell") {
    AttentionConfig a = sized(4, 8, 2);
    AttentionConfig b = a;
    b.scale = ScaleChoice{ScaleKind::None, 1.0f};
    const ComputeResult ra = run(a), rb = run(b);
    const TraceDifference d = subtract_traces(*ra.trace, *rb.trace);
    const int w = ra.trace->index_of(StepId::AttnWeights);
    CHECK(largest_difference(d, w) > 1e-4f);
    CHECK(largest_difference(d, ra.trace->index_of(StepId::AttnScores)) == 0.0f);  // scaling comes after
    const std::vector<float> got = d.trace->steps[static_cast<size_t>(w)].tensor.to_vector();
    const std::vector<float> va = ra.trace->find(StepId::AttnWeights)->tensor.to_vector();
    const std::vector<float> vb = rb.trace->find(StepId::AttnWeights)->tensor.to_vector();
    for (size_t k = 0; k < got.size(); ++k) CHECK(got[k] == va[k] - vb[k]);
}

TEST_CASE("steps of another shape or missing in B are not subtracted, and say why") {
    const ComputeResult a = run(sized(4, 8, 2)), b = run(sized(4, 8, 1));
    const TraceDifference d = subtract_traces(*a.trace, *b.trace);
    const int scores = a.trace->index_of(StepId::AttnScores);
    CHECK(d.comparable[static_cast<size_t>(scores)] == Comparable::ShapeDiffers);
    const Message why = why_not_comparable(*a.trace, *b.trace, d, scores);
    CHECK(why.id == "compare.shapes_differ");
    CHECK(text::render(why).find("H=1") != std::string::npos);
    // The input and the out projection keep their shapes: they still have a difference.
    CHECK(d.comparable[static_cast<size_t>(a.trace->index_of(StepId::Out))] == Comparable::Yes);
    const ComputeResult rope = run(rotated(sized(4, 8, 2)));
    const TraceDifference r = subtract_traces(*rope.trace, *a.trace);
    CHECK(r.comparable[static_cast<size_t>(rope.trace->index_of(StepId::QRot))] == Comparable::MissingInB);
}

TEST_CASE("the difference model colours each step on its own symmetric scale") {
    AttentionConfig b = causal(sized(4, 8, 2));
    b.seed = 7;
    AppState state = compared(causal(sized(4, 8, 2)), b);
    const int w = state.results.trace->index_of(StepId::AttnWeights);
    refresh_difference(state, w);
    REQUIRE(state.compare.difference_model);
    const StepDisplay& sd = state.compare.difference_model->steps[static_cast<size_t>(w)];
    CHECK(sd.built);
    CHECK(sd.colormap == ColormapKind::Diverging);
    CHECK(sd.vmin == -sd.vmax);
    CHECK(sd.vmax == doctest::Approx(largest_difference(state.compare.difference, w)));
    CHECK(state.compare.difference_model->signed_difference);
}

TEST_CASE("the inspector's A, B and A - B are the two traces' cells") {
    AttentionConfig b = sized(5, 8, 2);
    b.scale = ScaleChoice{ScaleKind::None, 1.0f};
    AppState state = compared(sized(5, 8, 2), b);
    const int w = state.results.trace->index_of(StepId::AttnWeights);
    refresh_difference(state, w);
    const Tensor& ta = state.results.trace->find(StepId::AttnWeights)->tensor;
    const Tensor& tb = state.compare.b_results.trace->find(StepId::AttnWeights)->tensor;
    for (int head = 0; head < 2; ++head)
        for (int row = 0; row < 5; ++row)
            for (int col = 0; col < 5; col += 2) {
                const ComparedCell cell = compare_cell(state, CellRef{w, head, row, col});
                REQUIRE(cell.has_a);
                REQUIRE(cell.has_b);
                REQUIRE(cell.has_difference);
                const std::vector<int64_t> index{0, head, row, col};
                CHECK(cell.a == ta.at(index));
                CHECK(cell.b == tb.at(index));
                CHECK(cell.difference == ta.at(index) - tb.at(index));
            }
    // Another shape in B: A's value only.
    AppState heads = compared(sized(4, 8, 2), sized(4, 8, 1));
    const ComparedCell other = compare_cell(heads, CellRef{heads.results.trace->index_of(StepId::AttnWeights), 1, 0, 0});
    CHECK(other.has_a);
    CHECK_FALSE(other.has_difference);
}

TEST_CASE("B's options are split like a shell's words and replace A's of the same name") {
    const auto split = cli::split_options("--num-heads 1 --scale=none --tokens 'a b c' --rope");
    REQUIRE(split);
    CHECK(split.value() == std::vector<std::string>{"--num-heads=1", "--scale=none", "--tokens=a b c", "--rope"});
    CHECK_FALSE(cli::split_options("--tokens 'a b"));
    CHECK_FALSE(cli::split_options("heads 4"));
    const std::vector<std::string> merged =
        cli::merge_options({"--num-heads=2", "--hidden-dim=8", "--tokens=a b c d"}, {"--num-heads=4", "--mask=causal"});
    CHECK(merged == std::vector<std::string>{"--num-heads=4", "--hidden-dim=8", "--tokens=a b c d", "--mask=causal"});
    // A model fixes its sizes: choosing one drops the configuration, keeps the sentence.
    CHECK(cli::merge_options({"--hidden-dim=8", "--tokens=a b"}, {"--model=tiny-lm"}) ==
          std::vector<std::string>{"--model=tiny-lm", "--tokens=a b"});
}

TEST_CASE("snapshot --compare's B: the session's setup with the options on top") {
    Session a;
    a.config = sized(4, 8, 2);
    a.sentence = a.sentence_in_use = "the cat sat down";
    Result<io::Problem> b = problem_for_b(a, "--scale none --mask causal");
    REQUIRE_MESSAGE(b, b.error());
    CHECK(b->config.scale.kind == ScaleKind::None);
    CHECK(b->config.mask == MaskKind::Causal);
    CHECK(b->config.hidden_dim == 8);
    CHECK(b->config.num_heads == 2);
    CHECK(b->query_tokens == std::vector<std::string>{"the", "cat", "sat", "down"});
    CHECK_FALSE(problem_for_b(a, "--num-heads 3"));  // 8 is not divisible by 3: refused as on the command line
    CHECK_FALSE(problem_for_b(a, "--no-such-option 1"));
}

TEST_CASE("every ready contrast sets up A and B as its row says") {
    Session session;
    session.config = sized(6, 16, 2);
    session.sentence = session.sentence_in_use = "the cat sat on the mat";
    for (const Contrast& contrast : contrasts()) {
        CAPTURE(contrast.id);
        const Result<ContrastSetup> setup = contrast_setup(session, contrast);
        REQUIRE_MESSAGE(setup, setup.error());
        const AttentionConfig& a = setup->a.config;
        const AttentionConfig& b = setup->b.config;
        const std::string id = contrast.id;
        // At d_h = 256 in one head, where unscaled softmax visibly saturates (issue 32), whatever is on screen.
        if (id == "scale") CHECK((a.scale.kind == ScaleKind::Head && b.scale.kind == ScaleKind::None && a.head_dim() == 256 && b.head_dim() == 256 && a.num_heads == 1));
        if (id == "heads") CHECK((a.num_heads == 1 && b.num_heads == 2 && a.hidden_dim == b.hidden_dim));
        if (id == "stacked") CHECK((a.variant == Variant::Split && b.variant == Variant::Stacked));
        if (id == "fused") CHECK((a.variant == Variant::Split && b.variant == Variant::Fused));
        if (id == "trained") {
            // Random weights with the model's sizes on the very tokens it read (<bos> too): one shape.
            CHECK((setup->a.model != nullptr && setup->b.model == nullptr && a.hidden_dim == b.hidden_dim));
            CHECK(setup->b.query_tokens == setup->a.model_tokens.tokens);
        }
        if (id == "bfloat16") CHECK((a.dtype == DType::Float32 && b.dtype == DType::BFloat16));
        if (id == "causal") CHECK((a.mask == MaskKind::None && b.mask == MaskKind::Causal));
        if (id == "rope_offset") CHECK((a.rope && b.rope && a.position_offset == 0 && b.position_offset == 5));
    }
}

TEST_CASE("RoPE with a position offset leaves the scores of the same relative positions unchanged") {
    AttentionConfig a = rotated(sized(6, 16, 2));
    AttentionConfig b = rotated(sized(6, 16, 2), RopeStyle::Half, 5);
    const ComputeResult ra = run(a), rb = run(b);
    const TraceDifference d = subtract_traces(*ra.trace, *rb.trace);
    const float q_rot = largest_difference(d, ra.trace->index_of(StepId::QRot));
    const float scores = largest_difference(d, ra.trace->index_of(StepId::AttnScores));
    CHECK(q_rot > 1e-2f);           // q itself turns further
    CHECK(scores < q_rot * 1e-3f);  // but q.k depends only on the distance: rounding only
}

TEST_CASE("softmax saturates without the scaling as d_h grows") {
    const std::vector<SaturationRow> rows = saturation_by_head_dim(sized(8, 8, 2));
    REQUIRE(rows.size() == 4);
    CHECK(rows.front().head_dim == 4);
    CHECK(rows.back().head_dim == 256);
    for (const SaturationRow& r : rows) CHECK((r.scaled > 1.0f / 8.0f && r.scaled <= 1.0f));
    CHECK(rows.back().unscaled > rows.back().scaled + 0.2f);
    CHECK(rows.back().unscaled > rows.front().unscaled);
}

TEST_CASE("the batch item and the layer move both sides; the rest stays each side's own") {
    Session a, b;
    a.config = sized(4, 8, 2, /*batch=*/2);
    b.config = sized(4, 8, 1, /*batch=*/2);
    a.batch_item = 1;
    CHECK(share_view_choices(a, b));
    CHECK(b.batch_item == 1);
    CHECK(b.config.num_heads == 1);  // B keeps its own configuration
    CHECK_FALSE(share_view_choices(a, b));  // nothing new to share
    // A layer is shared only between two sides that show a trained model.
    a.model_layer = 1;
    CHECK_FALSE(share_view_choices(a, b));
    CHECK(b.model_layer == 0);
}

namespace {

// A session showing tiny-lm's layer 0 on `sentence`, as the window holds it.
Session tiny_lm_session(const std::string& sentence) {
    Result<io::Problem> problem = cli::problem_from_arguments({"--model=tiny-lm", "--tokens=" + sentence});
    REQUIRE_MESSAGE(problem, problem.error());
    Session session;
    init_from_problem(session, problem.value());
    session.sentence = session.sentence_in_use = sentence;  // as typed
    return session;
}

}  // namespace

TEST_CASE("the scale contrast's pictures show what its sentence says: without scaling a row's weight piles onto one key") {
    // On the window's first screen (tiny-lm, whose random stand-in runs the contrast) and on
    // a small random setup: B's rows are far more peaked than A's. At d_h = 64 the mean row
    // peak was 0.46 against 0.33, at the window's old d_h = 4 the pictures differed by 0.04.
    for (const Session& session : {tiny_lm_session("the dog saw the cat and it ran"), [] {
                                       Session s;
                                       s.config = sized(6, 8, 2);
                                       return s;
                                   }()}) {
        const Result<ContrastSetup> setup = contrast_setup(session, *find_contrast("scale"));
        REQUIRE_MESSAGE(setup, setup.error());
        const ComputeResult a = ComputeWorker::compute(setup->a, 0, 512), b = ComputeWorker::compute(setup->b, 0, 512);
        REQUIRE((a.trace && b.trace));
        const float peak_a = mean_row_peak(*a.trace), peak_b = mean_row_peak(*b.trace);
        CAPTURE(peak_a);
        CAPTURE(peak_b);
        CHECK(peak_b > peak_a + 0.25f);
    }
}

TEST_CASE("a contrast a trained model cannot show runs on its sizes with random weights, and says so") {
    const Session session = tiny_lm_session("the dog saw the cat");
    for (const Contrast& contrast : contrasts()) {
        CAPTURE(contrast.id);
        const Result<ContrastSetup> setup = contrast_setup(session, contrast);
        REQUIRE_MESSAGE(setup, setup.error());
        // A and B always compute something different (before: tiny-lm ignored --scale=none,
        // A and B were the same run and A − B was 0 everywhere).
        const bool differ = (setup->a.model != nullptr) != (setup->b.model != nullptr) ||
                            cli::command_line_of(setup->a.config) != cli::command_line_of(setup->b.config);
        CHECK(differ);
        const std::string id = contrast.id;
        if (id == "trained" || id == "stacked" || id == "fused") CHECK(setup->note.empty());  // the model runs them itself
        if (id == "scale" || id == "causal" || id == "heads") CHECK_FALSE(setup->note.empty());  // tiny-lm fixes these
        if (setup->note.empty()) continue;
        CHECK(setup->a.model == nullptr);
        // The model's sizes (the scale contrast's own d_h = 256 aside) and the very tokens it read (<bos> first).
        if (id != "scale") CHECK(setup->a.config.hidden_dim == session.config.hidden_dim);
        CHECK(setup->a.query_tokens.front() == "<bos>");
    }
}

TEST_CASE("a ready contrast keeps the sentence as typed, and the model picker's note matches each side") {
    Session typed;
    typed.config = sized(5, 8, 2);
    typed.sentence = typed.sentence_in_use = "The cat saw the Dog";
    const Result<ContrastSetup> scale = contrast_setup(typed, *find_contrast("scale"));
    REQUIRE_MESSAGE(scale, scale.error());
    Session a = typed, b = typed;
    apply_contrast_side(a, scale->a, typed);
    apply_contrast_side(b, scale->b, typed);
    CHECK(a.sentence == "The cat saw the Dog");
    CHECK(b.sentence == "The cat saw the Dog");

    // tiny-lm with words it does not know: the box keeps them (not "<unk> <unk>").
    const Session model = tiny_lm_session("The zebra saw the Dog");
    const Result<ContrastSetup> trained = contrast_setup(model, *find_contrast("trained"));
    REQUIRE_MESSAGE(trained, trained.error());
    Session ta = model, tb = model;
    apply_contrast_side(ta, trained->a, model);
    apply_contrast_side(tb, trained->b, model);
    CHECK(ta.sentence == "The zebra saw the Dog");
    CHECK(ta.model_note.id == "model.note.chosen");
    // B runs random weights on the tokens tiny-lm read: its box shows them, and its note
    // says random weights (before: "trained model 'tiny-lm': its sizes are fixed").
    CHECK(tb.model == nullptr);
    CHECK(tb.model_note.id == "model.note.random_sized");
}

TEST_CASE("A − B says exactly 0 for identical runs and rounding for RoPE's offset on the scores") {
    SUBCASE("identical") {
        AppState state = compared(sized(4, 8, 2), sized(4, 8, 2));
        const int w = state.results.trace->index_of(StepId::AttnWeights);
        refresh_difference(state, w);
        const StepDisplay& sd = state.compare.difference_model->steps[static_cast<size_t>(w)];
        CHECK(sd.data_min == 0.0f);
        CHECK(sd.data_max == 0.0f);
        CHECK_FALSE(sd.rounding_only);
    }
    SUBCASE("RoPE at offsets 0 and 5: the scores differ by rounding only, q_rot for real") {
        AppState state = compared(rotated(sized(6, 16, 2)), rotated(sized(6, 16, 2), RopeStyle::Half, 5));
        const int scores = state.results.trace->index_of(StepId::AttnScores);
        const int q_rot = state.results.trace->index_of(StepId::QRot);
        refresh_difference(state, scores);
        refresh_difference(state, q_rot);
        const DisplayModel& d = *state.compare.difference_model;
        CHECK(d.steps[static_cast<size_t>(scores)].rounding_only);
        // The colour range is the rounding's size, wider than the noise: it stays pale.
        CHECK(d.steps[static_cast<size_t>(scores)].vmax > largest_difference(state.compare.difference, scores));
        CHECK_FALSE(d.steps[static_cast<size_t>(q_rot)].rounding_only);
    }
}
