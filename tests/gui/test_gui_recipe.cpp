// The Recipe menu's choice in the window: the whole configuration at once, the article's
// example input kept through later recomputes, and the card in the controls.
#include <doctest/doctest.h>

#include <string>

#include "app/gui/state/recipe_choice.h"
#include "app/gui/state/model_choice.h"
#include "app/text/languages.h"
#include "core/example_input.h"
#include "headless_imgui.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;

namespace {

std::shared_ptr<const Trace> computed(Session& session) {
    std::optional<ComputeRequest> request = make_request(session);
    REQUIRE_MESSAGE(request.has_value(), english(session.config_message));
    ComputeResult result = ComputeWorker::compute(*request, 1);
    REQUIRE_MESSAGE(result.error.empty(), english(result.error));
    return result.trace;
}

// Row `row` of batch item 0 of the trace's `input` step.
std::vector<float> input_row(const Trace& trace, int row) {
    const Step* step = trace.find(StepId::Input);
    REQUIRE(step != nullptr);
    const Tensor& input = step->tensor;
    std::vector<float> values;
    for (int64_t d = 0; d < input.dim(2); ++d) values.push_back(input.at({0, row, d}));
    return values;
}

}  // namespace

TEST_CASE("choosing scratch-mha in the window computes the article's module on its example input") {
    Session session;
    REQUIRE(choose_model(session, "tiny-lm").empty());  // the window starts on the trained model
    REQUIRE(choose_recipe(session, "scratch-mha").empty());
    CHECK_FALSE(session.model);
    CHECK(session.config.recipe == "scratch-mha");
    CHECK(session.config.init == InitKind::Torch);
    const ExampleInput* example = find_example_input(find_recipe("scratch-mha")->example_input);
    REQUIRE(example != nullptr);
    CHECK(session.sentence_in_use == "Your journey starts with one step");
    CHECK(english(session.model_note).find("scratch-mha") != std::string::npos);

    const std::shared_ptr<const Trace> first = computed(session);
    REQUIRE(first->config.d_in() == example->cols);
    for (int row = 0; row < example->rows; ++row) {
        const std::vector<float> got = input_row(*first, row);
        for (int d = 0; d < example->cols; ++d) CHECK(got[static_cast<size_t>(d)] == example->values[static_cast<size_t>(row * example->cols + d)]);
    }
    SUBCASE("a later recompute (another seed) keeps the example's numbers, not embedded words") {
        session.config.seed = 7;
        const std::shared_ptr<const Trace> second = computed(session);
        CHECK(input_row(*second, 0) == input_row(*first, 0));
        CHECK(second->weights().w_q(0, 0) != first->weights().w_q(0, 0));  // the seed still counts
    }
    SUBCASE("typing a sentence takes the words instead, as without a recipe") {
        session.sentence = "a b c d e f";
        REQUIRE(follow_sentence(session));
        const std::shared_ptr<const Trace> typed = computed(session);
        CHECK(input_row(*typed, 0) != input_row(*first, 0));
    }
}

TEST_CASE("every recipe can be chosen in the window and computes") {
    for (const Recipe& recipe : recipes()) {
        CAPTURE(recipe.name);
        Session session;
        REQUIRE(choose_recipe(session, recipe.name).empty());
        CHECK(recipe_in_use(session) == &recipe);
        const std::shared_ptr<const Trace> trace = computed(session);
        CHECK(trace->config.recipe == recipe.name);
    }
}

TEST_CASE("an unknown recipe leaves the session as it was and says which exist") {
    Session session;
    const AttentionConfig before = session.config;
    const Message error = choose_recipe(session, "no-such-recipe");
    REQUIRE_FALSE(error.empty());
    CHECK(english(error).find("scratch-mha") != std::string::npos);
    CHECK(session.config.recipe == before.recipe);
    CHECK(session.config.hidden_dim == before.hidden_dim);
}

TEST_CASE("the controls show the recipe card with the article and the seed") {
    HeadlessImGui imgui(1600, 1000);
    AppState state;
    REQUIRE(choose_recipe(state.session, "torch-mha").empty());
    std::optional<ComputeRequest> request = make_request(state.session);
    REQUIRE(request);
    accept_result(state, ComputeWorker::compute(*request, 1), 0.0);
    imgui.frame(state);
    imgui.frame(state);
    const std::string controls = drawn_text(attn::text::label("window.controls"));
    CHECK(shows(controls, attn::text::tr("recipe.card")));
    CHECK(shows(controls, find_recipe("torch-mha")->article));
    CHECK(shows(controls, "torch.manual_seed(" + std::to_string(state.session.config.seed) + ")"));
    // With a trained model there is no recipe card.
    REQUIRE(choose_model(state.session, "tiny-lm").empty());
    CHECK(recipe_in_use(state.session) == nullptr);
}
