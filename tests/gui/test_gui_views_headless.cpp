// Headless smoke tests of the views: an ImGui context with a display size and built
// fonts, no window and no GL. Every step, several moments of its animation, every head.
#include <doctest/doctest.h>

#include <cmath>

#include "tests/gui/headless_imgui.h"
#include "core/attention.h"
#include "app/gui/display/format.h"
#include "app/gui/display/layout.h"
#include "app/gui/state/settings.h"
#include "app/io/problem.h"
#include "app/text/step_text.h"
#include "tests/lang/pseudo_language.h"
#include "tests/catalogue_words.h"
#include "tests/test_configs.h"

using namespace attn;
using namespace attn::gui;

using namespace attn::gui::testing;
using attn::testing::words_after;
using attn::test_configs::sized;

TEST_CASE("every step draws its title, shape and timeline at every moment of its animation") {
    HeadlessImGui imgui(1280, 800);
    const uint64_t markers = text::markers_produced();
    for (MaskKind mask : {MaskKind::None, MaskKind::Causal}) {
        AttentionConfig c = sized(5, 6, 3);
        c.mask = mask;
        c.dropout = 0.2f;
        AppState state = state_for(c);
        REQUIRE(state.results.trace);
        state.settings.hint_seen = true;
        const int n = state.ui.playback.step_count();
        for (int step = 0; step < n; ++step) {
            const Step& shown = state.results.trace->steps[static_cast<size_t>(step)];
            const std::string title = text::describe_step(shown, *state.results.trace).title;
            CAPTURE(shown.name());
            for (float progress : {0.0f, 0.37f, 1.0f}) {
                state.ui.playback.set_position(step, progress);
                CAPTURE(progress);
                imgui.frame(state);
                // The explanation names the step, the canvas's caption its tensor, the
                // timeline where we are.
                CHECK(shows(drawn_text(text::label("window.explanation")), std::to_string(step + 1) + ". " + title));
                CHECK(shows(drawn_text("Canvas"), shown.name()));
                CHECK(shows(drawn_text("Timeline"), "step " + std::to_string(step + 1) + " / " + std::to_string(n)));
            }
            // Slides: the step's number and title above the canvas, with every head enlarged.
            for (int head = -1; head < 3; ++head) {
                state.ui.canvas.enlarged_head = head;
                imgui.frame(state, true, false);
                CHECK(shows(drawn_text("##title_strip"), std::to_string(step + 1) + " / " + std::to_string(n)));
                CHECK(shows(drawn_text("##title_strip"), title));
                CHECK(drawn_window("Canvas"));
                CHECK_FALSE(drawn_window(text::label("window.controls")));
            }
            state.ui.canvas.enlarged_head = -1;
        }
    }
    CHECK(text::markers_produced() == markers);  // every text drawn had its key and parameters
}

TEST_CASE("a window squeezed to almost nothing still draws the canvas and its title") {
    HeadlessImGui imgui(40, 30);
    AttentionConfig c;
    AppState state = state_for(c);
    REQUIRE(state.results.trace);
    for (int step = 0; step < state.ui.playback.step_count(); ++step) {
        CAPTURE(step);
        state.ui.playback.set_position(step, 0.5f);
        imgui.frame(state, false, false);
        CHECK(drawn_window("Canvas"));
        imgui.frame(state, false, true);
        CHECK(drawn_window("Canvas"));
        CHECK(drawn_window("##title_strip"));
    }
}

TEST_CASE("an invalid head count is explained instead of computed") {
    AppState state;
    state.session.config.hidden_dim = 10;
    state.session.config.num_heads = 4;
    CHECK_FALSE(make_request(state.session).has_value());
    CHECK_FALSE(state.session.config_message.empty());
    state.session.config.num_heads = 5;
    CHECK(make_request(state.session).has_value());
    CHECK(state.session.config_message.empty());
}

TEST_CASE("the sentence decides the tokens and the sequence length") {
    AppState state;
    state.session.sentence = "the cat sat";
    follow_sentence(state.session);
    CHECK(state.session.config.seq_len == 3);
    state.session.config.seq_len = 5;
    const auto tokens = effective_tokens(state.session);
    REQUIRE(tokens.size() == 5u);
    CHECK(tokens[2] == "sat");
    CHECK(tokens[4] == "t4");
}

TEST_CASE("the operand panels follow the chosen head; hovering only previews") {
    StepDisplay sd;
    sd.step = 3;
    for (int h = 0; h < 16; ++h) {
        Panel p;
        p.head = h;
        sd.panels.push_back(p);
    }
    CanvasUi ui;
    ui.enlarged_head = 5;  // head 5 chosen in the dropdown
    CHECK(operand_head(ui, sd, CellRef{}) == 5);
    CHECK(operand_head(ui, sd, CellRef{3, 0, 1, 1}) == 0);  // hovering head 0: a preview
    CHECK(operand_head(ui, sd, CellRef{}) == 5);            // the mouse left: back to head 5
    ui.enlarged_head = -1;
    ui.focus_head = 7;  // clicked last
    CHECK(operand_head(ui, sd, CellRef{}) == 7);
    CHECK(operand_head(ui, sd, CellRef{4, 2, 0, 0}) == 7);  // a cell of another step does not count
}

TEST_CASE("several sentences give one batch item each, with their own valid lengths") {
    AppState state;
    state.session.sentence = "the cat sat on the mat | a dog ran";
    REQUIRE(follow_sentence(state.session));
    CHECK(state.session.config.batch == 2);
    CHECK(state.session.config.seq_len == 6);
    CHECK(state.session.config.mask == MaskKind::Padding);
    CHECK(state.session.valid_lengths == std::vector<int>{6, 3});
    const auto request = make_request(state.session);
    REQUIRE(request.has_value());
    CHECK(request->config.valid_lengths == std::vector<int>{6, 3});
    REQUIRE(request->sources.sentences.size() == 2u);
    CHECK(request->sources.sentences[1][2] == "ran");
    ComputeResult r = ComputeWorker::compute(*request, 1);
    REQUIRE_MESSAGE(r.error.empty(), english(r.error));
    // Item 1 attends over its 3 words only; the pads get exactly 0.
    const Tensor& w = r.trace->find(attn::StepId::AttnWeights)->tensor;  // (B, H, L, S)
    CHECK(w.at({1, 0, 0, 2}) > 0.0f);
    CHECK(w.at({1, 0, 0, 3}) == 0.0f);
    CHECK(w.at({0, 0, 0, 5}) > 0.0f);
    // Moving B away from the sentences: the first sentence in every item, and a note.
    state.session.config.batch = 3;
    const auto tiled = make_request(state.session);
    REQUIRE(tiled.has_value());
    CHECK(tiled->sources.sentences.empty());
    CHECK(tiled->sources.tokens.front() == "the");
    CHECK_FALSE(state.session.sentence_message.empty());
    state.session.config.batch = 2;
    REQUIRE(make_request(state.session).has_value());
    CHECK(state.session.sentence_message.empty());
}

TEST_CASE("per-item valid lengths from the command line survive a change in the window") {
    AttentionConfig c;
    c.batch = 2;
    c.seq_len = 6;
    c.mask = MaskKind::Padding;
    for (const std::vector<int>& lengths : {std::vector<int>{6, 3}, std::vector<int>{3, 6}}) {
        c.valid_lengths = lengths;
        Result<io::Problem> problem = io::build_problem(c, {});
        REQUIRE(problem.ok());
        AppState state;
        init_from_problem(state.session, problem.value());
        state.session.batch_item = 1;  // e.g. the "show item" slider moved: a new request from the state
        const auto request = make_request(state.session);
        REQUIRE(request.has_value());
        CHECK(request->config.valid_lengths == lengths);
    }
}

TEST_CASE("an explicit seq_len without tokens shows generic rows and an empty sentence box") {
    AttentionConfig c;
    c.seq_len = 64;
    Result<io::Problem> problem = io::build_problem(c, {});
    REQUIRE(problem.ok());
    AppState state;
    init_from_problem(state.session, problem.value());
    CHECK(state.session.sentence.empty());
    CHECK_FALSE(state.session.tokens_from_sentence);
    const auto request = make_request(state.session);
    REQUIRE(request.has_value());
    CHECK(request->sources.tokens.empty());
    CHECK(request->config.seq_len == 64);
}

TEST_CASE("deleting the whole sentence keeps the last rows and says why") {
    AppState state;
    state.session.sentence = "the cat sat";
    REQUIRE(follow_sentence(state.session));
    state.session.sentence = "";
    CHECK_FALSE(follow_sentence(state.session));
    CHECK_FALSE(state.session.sentence_message.empty());
    CHECK(state.session.config.seq_len == 3);
    CHECK(effective_tokens(state.session)[1] == "cat");
    state.session.sentence = "a b | ";
    CHECK_FALSE(follow_sentence(state.session));
    CHECK(state.session.config.batch == 1);
}

TEST_CASE("the saved settings are the configuration on screen") {
    AppState state;  // E = 6 on screen, while the settings' default says 8
    state.session.config.hidden_dim = 6;
    store_config_in_settings(state);
    CHECK(state.settings.config.hidden_dim == 6);
    CHECK(serialize_settings(state.settings).find("hidden_dim = 6") != std::string::npos);
}


TEST_CASE("a 1024x768 projector gives the canvas half the width and keeps every panel") {
    HeadlessImGui imgui(1024, 768);
    AttentionConfig c = sized(6, 6, 2);
    AppState state = state_for(c);
    state.settings.hint_seen = true;
    imgui.frame(state, false, false);
    const ImGuiWindow* canvas = drawn_window("Canvas");
    REQUIRE(canvas);
    CHECK(canvas->Size.x >= 1024.0f * 0.5f - 16.0f);
    for (const char* name : {text::label("window.controls"), "Timeline", text::label("window.explanation"), text::label("window.inspector")}) {
        CAPTURE(name);
        const ImGuiWindow* w = drawn_window(name);
        REQUIRE(w);
        CHECK(w->Size.x > 100.0f);
        CHECK(w->Size.y > 30.0f);
        CHECK(w->Pos.x + w->Size.x <= 1024.0f + 0.5f);  // nothing off the right edge
        CHECK(w->Pos.y + w->Size.y <= 768.0f + 0.5f);
    }
}

TEST_CASE("a narrow window folds the controls into a tab that opens them over the canvas") {
    HeadlessImGui imgui(600, 500);
    AttentionConfig c;
    AppState state = state_for(c);
    state.settings.hint_seen = true;
    imgui.frame(state, false, false);
    CHECK(drawn_window("##controls_tab"));
    CHECK_FALSE(drawn_window(text::label("window.controls")));
    CHECK(drawn_window("Canvas")->Size.x >= 300.0f - 16.0f);
    state.ui.controls_open = true;
    imgui.frame(state, false, false);
    CHECK(drawn_window(text::label("window.controls")));

}

TEST_CASE("the first-run hint shows until it is dismissed or the user steps on") {
    HeadlessImGui imgui(1280, 800);
    AttentionConfig c;
    AppState state = state_for(c);
    REQUIRE_FALSE(state.settings.hint_seen);
    imgui.frame(state, false, false);
    CHECK(drawn_window("##first_run_hint"));
    state.ui.playback.set_position(1, 1.0f);
    imgui.frame(state, false, false);
    CHECK(state.settings.hint_seen);
    imgui.frame(state, false, false);
    CHECK_FALSE(drawn_window("##first_run_hint"));
}

namespace {

// Right edge of the last item drawn in the main menu bar ("File View Help"): it moves
// when the menu titles are drawn with other words.
float menu_bar_content_right() {
    const ImGuiWindow* bar = ImGui::FindWindowByName("##MainMenuBar");
    REQUIRE(bar);
    return bar->DC.CursorMaxPos.x;
}

}  // namespace

TEST_CASE("switching language redraws the labels from the same trace, windows in place") {
    test::register_pseudo_language();
    HeadlessImGui imgui(1280, 800);
    AttentionConfig c = sized(5, 8, 4);
    AppState state = state_for(c);
    state.settings.hint_seen = true;
    const uint64_t markers_before = text::markers_produced();
    imgui.frame(state, false, false);
    imgui.frame(state, false, false);
    const std::shared_ptr<const Trace> trace = state.results.trace;
    const uint64_t generation = state.results.posted_generation;
    const float english_menu = menu_bar_content_right();
    const ImGuiWindow* controls = drawn_window(text::label("window.controls"));
    REQUIRE(controls);
    const ImVec2 pos = controls->Pos, size = controls->Size;
    CHECK(text::describe_step(trace->steps.front(), *trace).title == text::tr("step.input.title"));

    test::LanguageScope scope("pseudo");
    imgui.frame(state, false, false);
    imgui.frame(state, false, false);
    // The bracketed menu titles are wider: the words drawn really changed...
    CHECK(menu_bar_content_right() > english_menu + 10.0f);
    CHECK(text::describe_step(trace->steps.front(), *trace).title == "[Input tokens]");
    // ...while the window is the same ImGui window, in the same place,
    const ImGuiWindow* pseudo_controls = drawn_window(text::label("window.controls"));
    CHECK(std::string(text::label("window.controls")) == "[Controls]###window.controls");
    CHECK(pseudo_controls == controls);
    CHECK(pseudo_controls->Pos.x == pos.x);
    CHECK(pseudo_controls->Pos.y == pos.y);
    CHECK(pseudo_controls->Size.x == size.x);
    CHECK(pseudo_controls->Size.y == size.y);
    // ...and nothing was recomputed: the same trace object, no request posted.
    CHECK(state.results.trace == trace);
    CHECK(state.results.posted_generation == generation);
    // Keys the pseudo-language lacks were drawn in English, not as markers.
    CHECK(text::markers_produced() == markers_before);
}

TEST_CASE("the font's glyphs follow the language in use") {
    test::register_pseudo_language();
    ImGuiContext* ctx = ImGui::CreateContext();
    const Fonts english = load_fonts(1.0f);
    REQUIRE(english.regular);
    constexpr ImWchar kCheck = 0x2713;  // ✓: only the pseudo-language's texts use it
    CHECK(english.regular->FindGlyphNoFallback(static_cast<ImWchar>('Q')) != nullptr);
    CHECK(english.regular->FindGlyphNoFallback(0x03C3) != nullptr);  // Greek stays for the formulas
    CHECK(english.regular->FindGlyphNoFallback(0x2211) != nullptr);  // and maths
    const bool have_dejavu = english.regular->FindGlyphNoFallback(0x03C3) != nullptr &&
                             english.regular->ConfigData && english.regular->ConfigData->FontDataSize > 100000;
    CHECK(english.regular->FindGlyphNoFallback(kCheck) == nullptr);
    {
        test::LanguageScope scope("pseudo");
        const Fonts pseudo = load_fonts(1.0f);
        if (have_dejavu) CHECK(pseudo.regular->FindGlyphNoFallback(kCheck) != nullptr);
    }
    const Fonts back = load_fonts(1.0f);
    CHECK(back.regular->FindGlyphNoFallback(kCheck) == nullptr);
    ImGui::DestroyContext(ctx);
}

TEST_CASE("the explanation of a fully masked row follows the fill: zeros for -inf, 1/S for -1e20") {
    for (const char* fill : {"-inf", "-1e20"}) {
        CAPTURE(std::string(fill));
        AttentionConfig c = sized(4, 4, 2);
        c.mask_presets = parse_mask_presets("left-padding").value();
        c.valid_lengths = {0};  // every key masked
        c.mask_fill = parse_mask_fill(fill).value();
        HeadlessImGui imgui(1600, 1000);
        AppState state = state_for(c);
        state.ui.playback.set_position(state.results.trace->index_of(StepId::AttnWeights), 1.0f);
        imgui.frame(state);
        imgui.frame(state);
        const std::string shown = drawn_text(attn::text::label("window.explanation"));
        const bool uniform = std::string(fill) != "-inf";
        CHECK(shows(shown, "is 1/4") == uniform);
        CHECK(shows(shown, words_after("explain.fully_masked_rows", "rows")) == !uniform);
    }
}

TEST_CASE("the storage key says why a step has no head: before the split, heads joined, or a table all heads share") {
    AttentionConfig c = sized(4, 8, 2);
    c.rope = true;
    HeadlessImGui imgui(1600, 1000);
    AppState state = state_for(c);
    REQUIRE(state.results.trace);
    state.settings.hint_seen = true;
    struct Case { StepId id; const char* key; };
    // (q and concat colour their columns by the head they go to or came from.)
    const Case cases[] = {{StepId::Input, "storage.key.no_head"},
                          {StepId::Out, "storage.key.no_head_joined"},
                          {StepId::RopeCos, "storage.key.no_head_shared"}};
    for (const Case& k : cases) {
        CAPTURE(step_name(k.id));
        state.ui.playback.set_position(state.results.trace->index_of(k.id), 1.0f);
        imgui.frame(state);
        imgui.frame(state);
        const std::string canvas = drawn_text("Canvas");
        CHECK(shows(canvas, attn::text::tr(k.key)));
        for (const char* other : {"storage.key.no_head", "storage.key.no_head_joined", "storage.key.no_head_shared"})
            if (std::string(other) != k.key) CHECK_FALSE(shows(canvas, attn::text::tr(other)));
    }
}

TEST_CASE("a projection's formula has a bias term only when the configuration has one") {
    AttentionConfig c = sized(4, 8, 2);
    for (const bool bias : {true, false}) {
        CAPTURE(bias);
        c.bias = bias;
        for (StepId id : {StepId::Q, StepId::K, StepId::V, StepId::Out}) {
            CAPTURE(step_name(id));
            const std::string formula = describe_step(id, c, attn::text::english()).formula;
            CHECK((formula.find("+ b_") != std::string::npos) == bias);
        }
    }
    c.bias = true;
    c.no_out_bias = true;  // an output projection without bias, biased q/k/v
    CHECK(describe_step(StepId::Q, c, attn::text::english()).formula.find("+ b_q") != std::string::npos);
    CHECK(describe_step(StepId::Out, c, attn::text::english()).formula.find("+ b_o") == std::string::npos);
}

TEST_CASE("one head and no output projection are said as they are (selfatt-v1)") {
    AttentionConfig c = sized(4, 8, 1);
    c.no_out_proj = true;
    const std::string split = describe_step(StepId::QSplit, c, attn::text::english()).explanation;
    CHECK(split.find("head 1") == std::string::npos);  // there is no second head
    CHECK(split.find("axis of size 1") != std::string::npos);
    const std::string concat = describe_step(StepId::Concat, c, attn::text::english()).explanation;
    CHECK(concat.find(attn::text::english().text("step.concat.no_out_proj")) != std::string::npos);
    c.num_heads = 2;
    c.no_out_proj = false;
    CHECK(describe_step(StepId::QSplit, c, attn::text::english()).explanation.find("head 1") != std::string::npos);
    CHECK(describe_step(StepId::Concat, c, attn::text::english()).explanation.find("no output projection") == std::string::npos);
}

// The side of the main picture's cells in presentation mode at 1024x768 (a projector),
// with type `scale` times larger (1.5: presentation; x 1.39: a larger UI scale on top).
static float presentation_cell(AppState state, StepId id, float scale, bool* numbers_hidden = nullptr) {
    HeadlessImGui imgui(1024, 768, scale);
    state.settings.hint_seen = true;
    state.ui.presentation = true;
    state.ui.playback.set_position(state.results.trace->index_of(id), 1.0f);
    imgui.frame(state, true, false);
    imgui.frame(state, true, false);
    if (numbers_hidden) *numbers_hidden = state.ui.canvas.numbers_hidden;
    return state.ui.canvas.result_cell;
}

TEST_CASE("presentation at 1024x768 gives the current tensor most of the screen") {
    SUBCASE("tiny-lm's 4 heads of 9x9 weights: as wide as the screen allows, every key column labelled") {
        // 4 heads x 9 keys = 36 columns side by side would need 1008 px at 28 px; two rows
        // of two heads get it once the explanation, caption and legend move beside them
        // (test_gui_presentation.cpp; before: 23.5 px in one row, 11 px before that).
        const AppState state = state_for_model("tiny-lm", 0);
        const float cell = presentation_cell(state, StepId::AttnWeights, kPresentationTypeScale);
        CHECK(cell >= 28.0f);
        // Column labels at that width: every key gets one (shortened, never skipped).
        const float font = 13.0f * kPresentationTypeScale;
        CHECK(fit_side_labels(cell, font, std::max(8.0f, font * 0.66f), 0.6f * 1.1f, 5, 1).every == 1);
    }
    SUBCASE("6x6 weights of two heads print their numbers, also with a larger UI scale") {
        // Issue 21: at UI scale 1.39 the two heads were 90 px wide with no numbers.
        AttentionConfig c = sized(6, 8, 2);
        const AppState state = state_for(c);
        for (const float ui_scale : {1.0f, 1.39f}) {
            CAPTURE(ui_scale);
            bool hidden = true;
            const float cell = presentation_cell(state, StepId::AttnWeights, kPresentationTypeScale * ui_scale, &hidden);
            CHECK(cell >= 40.0f);
            CHECK_FALSE(hidden);
        }
    }
}

TEST_CASE("presentation never cuts an explanation off without a sign: it fits, or its footer scrolls") {
    // Issue 21: long explanations were cut at the bottom edge of a 1024x768 projector.
    AppState state = state_for_model("tiny-lm", 0);
    state.settings.hint_seen = true;
    state.ui.presentation = true;
    for (const float ui_scale : {1.0f, 1.39f, 2.0f}) {
        HeadlessImGui imgui(1024, 768, kPresentationTypeScale * ui_scale);
        CAPTURE(ui_scale);
        for (int step = 0; step < state.ui.playback.step_count(); ++step) {
            CAPTURE(step);
            state.ui.playback.set_position(step, 1.0f);
            imgui.frame(state, true, false);
            imgui.frame(state, true, false);
            const ImGuiWindow* footer = drawn_window("##present_footer");
            REQUIRE(footer);
            const float inner_h = footer->Size.y - ImGui::GetStyle().WindowPadding.y * 2.0f;
            CHECK((footer->ContentSize.y <= inner_h + 1.0f || footer->ScrollbarY));
            CHECK(footer->Pos.y + footer->Size.y <= 768.0f + 0.5f);
        }
    }
}

TEST_CASE("every head of a step prints its numbers with the same decimals") {
    // Issue 21: at -L 4 -E 64 -H 32 (1920x1080, context) heads holding a negative value
    // printed nothing while their all-positive neighbours printed numbers.
    HeadlessImGui imgui(1920, 1080);
    AttentionConfig c = sized(4, 64, 32);
    AppState state = state_for(c);
    state.settings.hint_seen = true;
    const int index = state.results.trace->index_of(StepId::Context);
    state.ui.playback.set_position(index, 1.0f);
    imgui.frame(state, true, false);
    imgui.frame(state, true, false);
    REQUIRE_FALSE(state.ui.canvas.numbers_hidden);
    const std::string canvas = drawn_text("Canvas");
    const Tensor& context = state.results.trace->steps[static_cast<size_t>(index)].tensor;  // (B, H, L, d_h)
    // Each panel's first row, as the canvas prints it at `decimals`.
    const auto first_row = [&](int64_t head, int decimals) {
        std::string row;
        for (int64_t j = 0; j < context.shape()[3]; ++j) row += format_cell_fixed(context.at({0, head, 0, j}), decimals);
        return row;
    };
    int decimals = 2;
    while (decimals >= 0 && canvas.find(first_row(0, decimals)) == std::string::npos) --decimals;
    REQUIRE(decimals >= 0);
    bool some_negative = false;
    for (int64_t h = 0; h < 32; ++h) {
        CAPTURE(h);
        CHECK(canvas.find(first_row(h, decimals)) != std::string::npos);
        for (int64_t j = 0; j < context.shape()[3]; ++j) some_negative |= context.at({0, h, 0, j}) < 0.0f;
    }
    CHECK(some_negative);  // the case the issue saw: signs differ between heads
}

TEST_CASE("an algorithmic model's output sequence is drawn as its tokens, the tokens step as ids") {
    HeadlessImGui imgui(1600, 1000);
    AppState state = state_for_model("reverse", 0);
    REQUIRE(state.results.trace);
    state.settings.hint_seen = true;
    const Trace& trace = *state.results.trace;
    const int predicted = trace.index_of(StepId::PredictedTokens);
    REQUIRE(predicted >= 0);
    // The predicted ids, and the words the vocabulary gives them (the card's 3 1 4 1 5 9 2 6, reversed).
    std::string words, id_text;
    bool some_id_differs = false;
    const Tensor& ids = trace.steps[static_cast<size_t>(predicted)].tensor;  // (B, L)
    for (int64_t i = 0; i < ids.dim(1); ++i) {
        const auto id = static_cast<size_t>(std::lround(ids.at({0, i})));
        REQUIRE(id < trace.model.vocabulary.size());
        words += trace.model.vocabulary[id];
        id_text += std::to_string(id);
        some_id_differs |= trace.model.vocabulary[id] != std::to_string(id);
    }
    REQUIRE(some_id_differs);  // otherwise words and ids could not be told apart
    CHECK(words == "62951413");
    state.ui.playback.set_position(predicted, 1.0f);
    imgui.frame(state);
    imgui.frame(state);
    // The cells hold the words (the note under the canvas spells them too), not the ids.
    const std::string canvas = drawn_text("Canvas");
    CHECK(shows(canvas, words));
    CHECK_FALSE(shows(canvas, id_text));
}

// Issue 28 item 23: at 1024x768 an enlarged head beside its operands stayed about 190 px
// (cells of 31 px for L = 6, 41% of the height above the legend) with the canvas's lower
// part empty; its operands now give up width, and it is about 260 px.
TEST_CASE("an enlarged head at 1024x768 takes half the canvas's picture height, not 40%") {
    HeadlessImGui imgui(1024, 768);
    AppState state = state_for(sized(6, 6, 2));
    state.settings.hint_seen = true;
    state.ui.playback.set_position(state.results.trace->index_of(StepId::AttnWeights), 1.0f);
    state.ui.canvas.enlarged_head = 0;
    imgui.frame(state);
    imgui.frame(state);
    const ImGuiWindow* canvas = drawn_window("Canvas");
    REQUIRE(canvas);
    const float side = 6.0f * state.ui.canvas.result_cell;  // the enlarged (L, S) = (6, 6) map
    MESSAGE("enlarged head ", side, " px in a canvas ", canvas->Size.x, " x ", canvas->Size.y, ", pictures end at ",
            state.ui.canvas.pictures_bottom - canvas->Pos.y);
    CHECK(side >= 0.5f * (state.ui.canvas.pictures_bottom - canvas->Pos.y));
}
