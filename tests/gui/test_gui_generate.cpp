// Generate in the window (issue 30 part 3): a next-token model's generation through the
// worker (decode_run.h, start_generation_run), its steps in the token strip, the next-token
// chart's bars (display/next_token_bars.h) and the refusal of a prompt + N that does not fit.
#include <doctest/doctest.h>

#include <string>

#include "app/gui/compute/decode_run.h"
#include "app/gui/display/next_token_bars.h"
#include "app/gui/state/decode_choice.h"
#include "app/gui/state/model_choice.h"
#include "app/gui/views/panels/view_next_token.h"
#include "app/gui/views/panels/view_token_strip.h"
#include "app/text/languages.h"
#include "app/text/step_text.h"
#include "core/model/generate.h"
#include "core/model/tokenizer.h"
#include "tests/gui/headless_imgui.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;

namespace {

// The window's state after Generate with `model` on `sentence`: N tokens, drawn with `settings`.
AppState generated_state(const std::string& model, const std::string& sentence, int tokens, SamplingSettings settings = {}) {
    AppState state;
    REQUIRE(choose_model(state.session, model).empty());
    state.session.sentence = sentence;
    REQUIRE(follow_model_sentence(state.session));
    state.session.generate_tokens = tokens;
    state.session.sampling = settings;
    state.session.generating = true;
    recompute_session(state);
    return state;
}

NextTokenChoice choice_of(std::vector<float> logits, const SamplingSettings& s, uint64_t seed = 0) {
    Vec v(static_cast<Eigen::Index>(logits.size()));
    for (size_t i = 0; i < logits.size(); ++i) v(static_cast<Eigen::Index>(i)) = logits[i];
    Rng rng = sample_rng(seed);
    return choose_next_token(v, s, rng);
}

}  // namespace

TEST_CASE("Generate in the window is the core's generation: the same tokens, each a decode step of the shown layer") {
    SamplingSettings s;
    s.temperature = 0.8f;
    s.top_k = 10;
    s.top_p = 0.9f;
    s.seed = 3;
    AppState state = generated_state("tiny-lm", "the cat", 6, s);
    REQUIRE(state.results.decode);
    const DecodeRun& run = *state.results.decode;
    REQUIRE(run.generation);
    const int P = run.prefill();
    CHECK(P == 3);  // <bos> the cat
    CHECK(run.length() == P + 6);
    CHECK(run.step_count() == 6);
    // The same tokens as the command line's generation with the same settings.
    Result<GenerationRun> reference = generate(*state.session.model, state.results.decode->problem->model_tokens.ids, 6, s);
    REQUIRE(reference.ok());
    CHECK(run.generation->ids == reference->ids);
    const std::vector<std::string> tokens = decode_tokens(run, 0);
    REQUIRE(tokens.size() == static_cast<size_t>(P + 6));
    CHECK(tokens[static_cast<size_t>(P)] == state.session.model->spec.vocabulary[static_cast<size_t>(reference->ids[static_cast<size_t>(P)])]);
    // A click on the last token: its decode step, one row against every cached position.
    REQUIRE(show_decode_step(state, 6, 0.0).empty());
    CHECK(state.results.decode_step == 6);
    CHECK(state.results.trace->decode_position() == P + 5);
    CHECK(state.results.key_tokens.size() == static_cast<size_t>(P + 6));
    CHECK(state.results.decode_rows.position == P + 5);
    const DecodeRowStep* weights = state.results.decode_rows.find(StepId::AttnWeights);
    REQUIRE(weights != nullptr);
    CHECK(weights->largest_relative < 1e-5f);  // the decode row equals the whole pass's
    // Step k's choice drew the token at position P + k; the last step chooses nothing.
    CHECK(choice_after_step(run, 0)->token == run.generation->ids[static_cast<size_t>(P)]);
    CHECK(choice_after_step(run, 5)->token == run.generation->ids[static_cast<size_t>(P + 5)]);
    CHECK(choice_after_step(run, 6) == nullptr);
}

TEST_CASE("a prompt plus N that does not fit the model is refused with how many fit, and nothing is computed") {
    AppState state;
    REQUIRE(choose_model(state.session, "induction").empty());  // max_len 32
    state.session.sentence = "a b c d";
    REQUIRE(follow_model_sentence(state.session));
    state.session.generate_tokens = 40;
    state.session.generating = true;
    const Message why = generation_refusal(state.session);
    REQUIRE_FALSE(why.empty());
    CHECK(why.id == "gen.too_many");
    CHECK(english(why).find("at most 27") != std::string::npos);  // 32 - 5 (<bos> and four letters)
    CHECK_FALSE(make_request(state.session).has_value());
    state.session.generate_tokens = 27;
    CHECK(generation_refusal(state.session).empty());
    CHECK(make_request(state.session).has_value());
}

TEST_CASE("the chart's bars: likeliest first, the removed greyed, the drawn one always among them") {
    SamplingSettings s;
    s.temperature = 1.0f;
    s.top_k = 2;
    const std::vector<std::string> vocabulary = {"a", "b", "c", "d", "e"};
    const NextTokenChoice choice = choice_of({0.0f, 3.0f, 1.0f, 3.0f, -1.0f}, s);
    const NextTokenBars bars = next_token_bars(choice, vocabulary, 4);
    REQUIRE(bars.bars.size() == 4);
    CHECK(bars.kept == 2);
    CHECK(bars.vocabulary == 5);
    CHECK(bars.bars[0].id == 1);  // equal logits: the lower id first
    CHECK(bars.bars[1].id == 3);
    CHECK(bars.bars[2].id == 2);
    CHECK(bars.bars[0].kept);
    CHECK_FALSE(bars.bars[2].kept);
    CHECK(bars.bars[2].drawn_from == 0.0f);
    CHECK(bars.bars[0].drawn_from == doctest::Approx(0.5f));
    CHECK(bars.bars[0].model == doctest::Approx(choice.probs(1)));
    int drawn = 0;
    for (const NextTokenBar& b : bars.bars) drawn += b.drawn ? 1 : 0;
    CHECK(drawn == 1);
    // A drawn token below the likeliest shown takes the last bar's place.
    NextTokenChoice unlikely = choice;
    unlikely.token = 4;
    const NextTokenBars two = next_token_bars(unlikely, vocabulary, 2);
    REQUIRE(two.bars.size() == 2);
    CHECK(two.bars[0].id == 1);
    CHECK(two.bars[1].id == 4);
    CHECK(two.bars[1].drawn);
}

TEST_CASE("the token strip shows the generated tokens and the next-token chart in every language") {
    for (const char* language : {"en", "zh-Hans", "zh-Hant"}) {
        CAPTURE(language);
        REQUIRE(text::set_language(language));
        HeadlessImGui imgui(1280, 1600);
        SamplingSettings s;
        s.temperature = 1.0f;
        s.top_k = 5;
        AppState state = generated_state("tiny-lm", "the dog", 4, s);
        imgui.frame(state);
        imgui.frame(state);
        const std::string strip = drawn_text("Generation");
        CHECK(shows(strip, text::tr("strip.generated")));
        CHECK(shows(strip, text::tr("gen.next.legend.model")));
        CHECK(next_token_chart_height(state.results) > 0.0f);
        REQUIRE(show_decode_step(state, 4, 0.0).empty());  // the last token: nothing more drawn
        imgui.frame(state);
        imgui.frame(state);
        CHECK(shows(drawn_text("Generation"), text::tr("gen.next.last")));
    }
    REQUIRE(text::set_language("en"));
}

TEST_CASE("a generation's KV cache line counts every layer of the model, not one") {
    AppState state = generated_state("tiny-lm", "the cat", 2);
    REQUIRE(state.results.decode);
    const DecodeRun& run = *state.results.decode;
    const int layers = state.session.model->spec.layers;
    REQUIRE(layers > 1);  // tiny-lm has more than one layer, so one-layer arithmetic shows
    CHECK(run.layers() == layers);
    const AttentionConfig& c = run.problem->config;
    const int64_t per_layer = kv_cache_bytes_per_token(1, c.H_kv(), c.head_dim(), c.dtype);
    const std::string line = kv_memory_line(c, run.layers(), 5);
    CHECK(line.find(std::to_string(layers) + " layer") != std::string::npos);
    CHECK(line.find(format_bytes(static_cast<uint64_t>(per_layer * layers))) != std::string::npos);
}

TEST_CASE("a generation's texts count the rows on screen: the prompt in the prefill, one row and its keys in a decode step") {
    AppState state = generated_state("tiny-lm", "the cat saw", 3);
    REQUIRE(state.results.decode);
    const DecodeRun& run = *state.results.decode;
    const int P = run.prefill();  // <bos> the cat saw
    REQUIRE(P == 4);
    const Trace& prefill = *run.traces.at(0);
    const auto words = [](const Trace& t, StepId id) { return text::describe_step(*t.find(id), t, text::english()).explanation; };
    CHECK(words(prefill, StepId::Tokens).find("into 4 token") != std::string::npos);
    CHECK(words(prefill, StepId::Tokens).find("into 7 token") == std::string::npos);  // not prompt + generated
    CHECK(words(prefill, StepId::PositionEmbedding).find("rows 0..3") != std::string::npos);
    REQUIRE(show_decode_step(state, 2, 0.0).empty());  // the row at position P + 1 = 5, reading keys 0..5
    const Trace& step = *state.results.trace;
    CHECK(words(step, StepId::AttnScores).find("1 x 6 scores") != std::string::npos);
    CHECK(words(step, StepId::PositionEmbedding).find("rows 5..5") != std::string::npos);
    CHECK(words(step, StepId::Input).find("1 token") != std::string::npos);
}

TEST_CASE("Generate opens on a count that fits after the model's own sentence, and keeps a count the user chose") {
    AppState state;
    REQUIRE(choose_model(state.session, "tiny-lm").empty());
    const ModelSpec& spec = state.session.model->spec;
    Result<TokenizedText> example = tokenize(spec, state.session.sentence_in_use);
    REQUIRE(example.ok());
    const int fit = spec.max_len - static_cast<int>(example->ids.size());
    REQUIRE(fit < kDefaultNewTokens);  // the card's sentence leaves fewer than 8: the default would be refused
    CHECK(state.session.generate_tokens == std::max(1, fit));
    CHECK(generation_refusal(state.session).empty());
    state.session.sentence = "the cat";  // a short sentence: the whole default fits again
    REQUIRE(follow_model_sentence(state.session));
    CHECK(state.session.generate_tokens == kDefaultNewTokens);
    state.session.generate_tokens = 40;  // typed by the user (view_generate sets the flag)
    state.session.generate_tokens_chosen = true;
    state.session.sentence = "the dog";
    REQUIRE(follow_model_sentence(state.session));
    CHECK(state.session.generate_tokens == 40);  // kept, and refused with how many fit
    CHECK_FALSE(generation_refusal(state.session).empty());
}
