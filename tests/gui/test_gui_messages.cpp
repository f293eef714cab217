// The window shows the core's and the loaders' messages in the language in use, and a
// language switch re-words them from the stored message, with no new computation.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

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
    // Back in English: the stored message, worded again; the last good trace still drawn.
    const auto trace = state.results.trace;
    imgui.frame(state);
    CHECK(shows(drawn_text("Canvas"), english(state.results.compute_error)));
    CHECK_FALSE(shows(drawn_text("Canvas"), "[cannot open"));
    CHECK_FALSE(shows(drawn_text("Canvas"), "is no .npy]"));
    CHECK(state.results.trace == trace);
    std::filesystem::remove_all(folder);
}
