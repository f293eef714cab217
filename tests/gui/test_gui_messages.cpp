// The window shows the core's and the loaders' messages in the language in use, and a
// language switch re-words them from the stored message, with no new computation.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "app/gui/state/model_choice.h"
#include "app/io/npy.h"
#include "app/gui/state/recipe_choice.h"
#include "app/gui/display/step_notes.h"
#include "app/text/languages.h"
#include "tests/gui/headless_imgui.h"
#include "tests/lang/pseudo_language.h"
#include "tests/test_configs.h"
#include "tests/catalogue_words.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;
using namespace attn::test_configs;
using attn::testing::opening;

namespace {

// Runs the session's request through the worker, as the window does after an edit.
void recompute(AppState& state) {
    const std::optional<ComputeRequest> request = make_request(state.session);
    REQUIRE(request.has_value());
    accept_result(state, ComputeWorker::compute(*request, 2), 1.0);
}

}  // namespace

TEST_CASE("a configuration the window refuses is explained in the language in use, and in English after a switch") {
    test::register_pseudo_language();
    HeadlessImGui imgui(1280, 2400);  // tall enough that the whole controls panel is drawn
    AppState state = state_for(sized(4, 8, 2));
    REQUIRE(state.results.trace);
    const auto trace_before = state.results.trace;
    // Typed into the sliders (Ctrl+click): about 5 GiB of attention maps.
    AttentionConfig& c = state.session.config;
    c.batch = 8;
    c.seq_len = 1024;
    c.hidden_dim = 1024;
    c.num_heads = 32;
    {
        test::LanguageScope pseudo("pseudo");
        CHECK_FALSE(make_request(state.session).has_value());
        REQUIRE(state.session.config_message.id == "error.config.memory");
        imgui.frame(state);
        imgui.frame(state);
        CHECK(shows(drawn_text(text::label("window.controls")), "[too big: about"));
    }
    const Message stored = state.session.config_message;
    imgui.frame(state);
    const std::string controls = drawn_text(text::label("window.controls"));
    CHECK(shows(controls, english(stored)));
    CHECK(shows(controls, opening("error.config.memory")));
    CHECK_FALSE(shows(controls, "[too big"));
    CHECK(state.session.config_message == stored);     // re-rendered, not re-validated
    CHECK(state.results.trace == trace_before);        // and nothing was computed
}

TEST_CASE("a missing weights file and a damaged .npy are explained over the canvas in the language in use") {
    test::register_pseudo_language();
    HeadlessImGui imgui(1024, 768);
    AppState state = state_for(sized(4, 8, 2));
    REQUIRE(state.results.trace);
    const std::filesystem::path folder = std::filesystem::temp_directory_path() / "attnviz_test_gui_messages";
    std::filesystem::create_directories(folder);

    SUBCASE("a weights file that is not there") {
        state.session.sources.weights_path = (folder / "missing.safetensors").string();
        recompute(state);
        REQUIRE(state.results.compute_error.id == "error.file.open");
        test::LanguageScope pseudo("pseudo");
        imgui.frame(state);
        imgui.frame(state);
        CHECK(shows(drawn_text("Canvas"), "[cannot open '" + state.session.sources.weights_path));
    }
    SUBCASE("a query file that is not a .npy") {
        const std::string path = (folder / "query.npy").string();
        std::ofstream(path) << "hello world!";
        state.session.sources.query_path = path;
        recompute(state);
        REQUIRE(state.results.compute_error.id == "error.npy.magic");
        test::LanguageScope pseudo("pseudo");
        imgui.frame(state);
        imgui.frame(state);
        CHECK(shows(drawn_text("Canvas"), "['" + path + "' is no .npy]"));
    }
    SUBCASE("a query .npy whose header dict never closes (numpy.load refuses it)") {
        const std::string path = (folder / "unterminated.npy").string();
        std::string bytes = io::encode_npy(Tensor::from_values({1, 4, 8}, {"B", "L", "E"}, std::vector<float>(32, 0.5f)));
        bytes[bytes.find('}')] = ' ';
        std::ofstream(path, std::ios::binary) << bytes;
        state.session.sources.query_path = path;
        recompute(state);
        REQUIRE(state.results.compute_error.id == "error.npy.header_not_dict");
    }
    // Back in English: the stored message, worded again; the last good trace still drawn.
    const auto trace = state.results.trace;
    imgui.frame(state);
    CHECK(shows(drawn_text("Canvas"), english(state.results.compute_error)));
    CHECK_FALSE(shows(drawn_text("Canvas"), "[cannot open"));
    CHECK_FALSE(shows(drawn_text("Canvas"), "is no .npy]"));
    CHECK(state.results.trace == trace);
    std::filesystem::remove_all(folder);
}

namespace {

// Every piece of English the catalogue has for `keys` that `drawn` shows (none expected).
std::vector<std::string> english_shown(const std::string& drawn, const std::vector<std::string>& keys) {
    std::vector<std::string> found;
    for (const std::string& key : keys)
        for (const std::string& piece : test::english_pieces(key))
            if (shows(drawn, piece)) found.push_back(key + ": " + piece);
    return found;
}

}  // namespace

TEST_CASE("in another language the recipe card, an --init torch refusal and an unknown word's note show no English") {
    test::register_pseudo_language();
    HeadlessImGui imgui(1600, 2400);  // tall enough that the whole controls panel is drawn
    AppState state;
    REQUIRE(choose_recipe(state.session, "torch-mha").empty());
    recompute(state);
    REQUIRE(state.results.trace);

    SUBCASE("the recipe card") {
        const std::vector<std::string> card_keys = {"recipe.card", "recipe.torch_mha.description", "recipe.torch_mha.special",
                                                    "recipe.card.article", "recipe.card.init_torch"};
        imgui.frame(state);
        const std::string english_controls = drawn_text(text::label("window.controls"));
        CHECK(english_shown(english_controls, card_keys).size() >= card_keys.size());  // the check sees English
        test::LanguageScope pseudo("pseudo");
        imgui.frame(state);
        imgui.frame(state);
        const std::string controls = drawn_text(text::label("window.controls"));
        CHECK(shows(controls, "[nn.MultiheadAttention, packed in_proj]"));
        CHECK(shows(controls, "[queries of L attend to keys of S"));
        CHECK(shows(controls, "[weights of torch.manual_seed(" + std::to_string(state.session.config.seed) + ")]"));
        CHECK(english_shown(controls, card_keys).empty());
    }
    SUBCASE("an --init torch refusal over the canvas") {
        state.session.config.no_out_proj = true;  // nn.MultiheadAttention always has one
        recompute(state);
        REQUIRE(state.results.compute_error.id == "error.torch_init.mha_out_proj");
        imgui.frame(state);
        CHECK_FALSE(english_shown(drawn_text("Canvas"), {"error.torch_init.mha_out_proj"}).empty());  // the check sees English
        test::LanguageScope pseudo("pseudo");
        imgui.frame(state);
        imgui.frame(state);
        const std::string canvas = drawn_text("Canvas");
        CHECK(shows(canvas, "[--init torch: nn.MultiheadAttention keeps out_proj"));
        CHECK(english_shown(canvas, {"error.torch_init.mha_out_proj"}).empty());
    }
    SUBCASE("a model sentence with unknown words, in the controls and the tokens step's note") {
        REQUIRE(choose_model(state.session, "tiny-lm").empty());
        state.session.sentence = "the zebra saw the moon";
        REQUIRE(follow_model_sentence(state.session));
        recompute(state);
        REQUIRE(state.results.trace->model.unknown_words == std::vector<std::string>{"zebra", "moon"});
        const std::vector<std::string> note_keys = {"model.unknown_words", "model.unknown_words.many", "notes.unknown_words"};
        imgui.frame(state);
        CHECK(english_shown(drawn_text(text::label("window.controls")), note_keys).size() >= 2);  // the check sees English
        test::LanguageScope pseudo("pseudo");
        imgui.frame(state);
        imgui.frame(state);
        const std::string controls = drawn_text(text::label("window.controls"));
        CHECK(shows(controls, "[[<unk> for <zebra> / <moon>]: one shared <unk> row]"));
        CHECK(english_shown(controls, note_keys).empty());
        const Trace& trace = *state.results.trace;
        int tokens_step = -1;
        for (size_t i = 0; i < trace.steps.size(); ++i)
            if (trace.steps[i].id == StepId::Tokens) tokens_step = static_cast<int>(i);
        REQUIRE(tokens_step >= 0);
        const std::vector<std::string> notes = step_notes(trace, tokens_step, 0);
        REQUIRE(notes.size() == 1);
        CHECK(notes[0] == "[[<unk> for <zebra> / <moon>]: never seen in training]");
    }
}
