#include <doctest/doctest.h>

#include <algorithm>
#include <string>

#include "app/gui/state/model_choice.h"
#include "app/gui/display/step_notes.h"
#include "app/gui/views/controls/view_controls.h"
#include "app/text/languages.h"
#include "app/text/step_text.h"
#include "headless_imgui.h"
#include "tests/lang/pseudo_language.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;

namespace {

// The session's request computed by the real worker and taken into `state`.
void compute_into(AppState& state) {
    std::optional<ComputeRequest> request = make_request(state.session);
    REQUIRE(request.has_value());
    ComputeResult result = ComputeWorker::compute(*request, 1);
    REQUIRE_MESSAGE(result.error.empty(), english(result.error));
    accept_result(state, std::move(result), 0.0);
}

bool has_step(const Trace& trace, StepId id) { return trace.index_of(id) >= 0; }

}  // namespace

TEST_CASE("choosing a trained model changes the config and adds the model's steps") {
    AppState state;
    compute_into(state);
    REQUIRE(state.results.trace);
    CHECK_FALSE(has_step(*state.results.trace, StepId::Tokens));
    REQUIRE(choose_model(state.session, "tiny-lm").empty());
    compute_into(state);
    const Trace& trace = *state.results.trace;
    CHECK(trace.model.name == "tiny-lm");
    CHECK(trace.config.hidden_dim == 64);
    CHECK(trace.config.num_heads == 4);
    CHECK(trace.config.seq_len == 9);  // <bos> + the card's 8 words
    for (StepId id : {StepId::Tokens, StepId::TokenEmbedding, StepId::PositionEmbedding, StepId::EmbeddingSum, StepId::Norm,
                      StepId::Residual, StepId::NextTokenProbs}) {
        CAPTURE(step_name(id));
        CHECK(has_step(trace, id));
    }
    SUBCASE("the layer picker shows layer 1, whose input comes from layer 0") {
        CHECK(choose_layer(state.session, 1));
        compute_into(state);
        CHECK(state.results.trace->model.layer == 1);
        CHECK(has_step(*state.results.trace, StepId::LayerInput));
        CHECK_FALSE(choose_layer(state.session, 7));  // clamped to the last layer, already shown
    }
    SUBCASE("an algorithmic model shows its output sequence after out") {
        REQUIRE(choose_model(state.session, "reverse").empty());
        compute_into(state);
        const int out = state.results.trace->index_of(StepId::Out);
        REQUIRE(out >= 0);
        const std::vector<std::string>& notes = state.results.model->steps[static_cast<size_t>(out)].notes;
        REQUIRE_FALSE(notes.empty());
        CHECK(notes[0] == "model output: 6 2 9 5 1 4 1 3");  // the card's 3 1 4 1 5 9 2 6, reversed
    }
    SUBCASE("back to random weights keeps the model's sizes and says so") {
        choose_random_weights(state.session, true);
        CHECK_FALSE(state.session.model);
        CHECK(state.session.config.hidden_dim == 64);
        CHECK(state.session.config.num_heads == 4);
        CHECK(english(state.session.model_note).find(text::tr("model.random")) != std::string::npos);
        compute_into(state);
        CHECK_FALSE(state.results.trace->model.present());
    }
    CHECK_FALSE(choose_model(state.session, "no-such-model").empty());
}

TEST_CASE("unknown words become <unk> with a note; empty and too long text is refused visibly") {
    Session session;
    REQUIRE(choose_model(session, "tiny-lm").empty());
    session.sentence = "The dog saw the Zebra";
    CHECK(follow_model_sentence(session));
    CHECK(session.sentence_message.empty());
    CHECK(english(session.unknown_note).find("Zebra") != std::string::npos);
    const std::string in_use = session.sentence_in_use;
    session.sentence = "   ";
    CHECK_FALSE(follow_model_sentence(session));
    CHECK_FALSE(session.sentence_message.empty());
    CHECK(session.sentence_in_use == in_use);
    std::string long_text;
    for (int i = 0; i < 40; ++i) long_text += "the dog ";
    session.sentence = long_text;
    CHECK_FALSE(follow_model_sentence(session));
    CHECK_FALSE(session.sentence_message.empty());
    CHECK(session.sentence_in_use == in_use);
    // The text in use still computes.
    const std::optional<ComputeRequest> request = make_request(session);
    REQUIRE(request);
    CHECK(ComputeWorker::compute(*request, 1).error.empty());
}

TEST_CASE("a Chinese sentence in the sentence box gives one token per character, with and without tiny-lm-zh") {
    SUBCASE("random weights: the rows are the characters, Latin words whole") {
        Session session;
        session.sentence = "我的 GPU 很快";
        REQUIRE(follow_sentence(session));
        CHECK(session.config.seq_len == 5);
        CHECK(effective_tokens(session) == std::vector<std::string>{"我", "的", "GPU", "很", "快"});
    }
    SUBCASE("tiny-lm-zh: both scripts are known, every character is a token") {
        AppState state;
        REQUIRE(choose_model(state.session, "tiny-lm-zh").empty());
        state.session.sentence = "小鳥看見了王芳，它飛了。";
        REQUIRE(follow_model_sentence(state.session));
        CHECK(state.session.unknown_note.empty());
        compute_into(state);
        CHECK(state.results.trace->model.name == "tiny-lm-zh");
        CHECK(state.results.trace->config.seq_len == 13);  // <bos> + 12 characters
    }
    SUBCASE("invalid UTF-8 is refused next to the box; the rows stay as they were") {
        Session session;
        session.sentence = "我的";
        REQUIRE(follow_sentence(session));
        session.sentence = "我\xE7\x9A";  // 的 without its last byte
        CHECK_FALSE(follow_sentence(session));
        CHECK(english(session.sentence_message).find("UTF-8") != std::string::npos);
        CHECK(session.sentence_in_use == "我的");
    }
}

TEST_CASE("the picker draws the model's card with its measured head claims") {
    HeadlessImGui imgui(1600, 1400);  // tall enough for the open card and the size controls under it
    AppState state;
    REQUIRE(choose_model(state.session, "tiny-lm").empty());
    compute_into(state);
    imgui.frame(state);
    imgui.frame(state);
    const std::string controls = without_spaces(drawn_text(attn::text::label("window.controls")));
    CHECK(controls.find(without_spaces("tiny-lm")) != std::string::npos);
    CHECK(controls.find(without_spaces(text::tr("model.card"))) != std::string::npos);
    CHECK(controls.find(without_spaces("measured")) != std::string::npos);
    CHECK(controls.find(without_spaces(text::tr("model.sizes_fixed"))) != std::string::npos);
    const std::vector<std::string> lines = model_card_lines(state.session.model->spec, 0);
    const bool claims = std::any_of(lines.begin(), lines.end(), [](const std::string& l) { return l.rfind("head 0:", 0) == 0; });
    CHECK(claims);
    // Held-out figures are named as a reader says them, not by the card's JSON keys.
    const auto& figures = state.session.model->spec.heldout_figures;
    REQUIRE_FALSE(figures.empty());
    for (const auto& [name, value] : figures)
        for (const std::string& line : lines) CHECK_MESSAGE(line.find(name) == std::string::npos, line);
}

TEST_CASE("the card says which layers were trained with the attention-entropy penalty") {
    AppState state;
    REQUIRE(choose_model(state.session, "tiny-lm").empty());
    const ModelSpec& spec = state.session.model->spec;
    REQUIRE(spec.attention_entropy_penalty.size() == static_cast<size_t>(spec.layers));
    for (int layer = 0; layer < spec.layers; ++layer) {
        CAPTURE(layer);
        const std::vector<std::string> lines = model_card_lines(spec, layer);
        const bool said = std::any_of(lines.begin(), lines.end(), [](const std::string& l) { return l.find("entropy") != std::string::npos; });
        CHECK(said == (spec.attention_entropy_penalty[static_cast<size_t>(layer)] > 0));
    }
    CHECK(spec.attention_entropy_penalty[0] > 0);  // layer 0's previous-token head depends on it (assets/models/README.md)
}

TEST_CASE("a saved model lesson resumes on the same model, layer and sentence") {
    AppState before;
    REQUIRE(choose_model(before.session, "tiny-lm").empty());
    before.session.sentence = "the cat saw the dog";
    REQUIRE(follow_model_sentence(before.session));
    REQUIRE(choose_layer(before.session, 1));
    compute_into(before);
    store_config_in_settings(before);
    const UiSettings saved = parse_settings(serialize_settings(before.settings));
    CHECK(saved.model == "tiny-lm");
    AppState after;
    after.settings = saved;
    CHECK(restore_saved_session(after).empty());
    REQUIRE(after.session.model);
    CHECK(after.session.model->spec.name == "tiny-lm");
    CHECK(after.session.model_layer == 1);
    CHECK(after.session.sentence_in_use == "the cat saw the dog");
}

TEST_CASE("repeated words are explained at the position steps and the top 5 next words after out") {
    AppState state;
    REQUIRE(choose_model(state.session, "tiny-lm").empty());
    compute_into(state);
    const Trace& trace = *state.results.trace;
    const auto notes_of = [&](StepId id) {
        const int i = trace.index_of(id);
        REQUIRE(i >= 0);
        return step_notes(trace, i, 0);
    };
    // The card's sentence "the dog saw the cat and it ran" has 'the' at 1 and 4.
    const std::vector<std::string> sum = notes_of(StepId::EmbeddingSum);
    REQUIRE_FALSE(sum.empty());
    CHECK(sum[0].find("'the' at positions 1 and 4") != std::string::npos);
    CHECK_FALSE(notes_of(StepId::PositionEmbedding).empty());
    const std::vector<std::string> out = notes_of(StepId::NextTokenProbs);
    REQUIRE_FALSE(out.empty());
    CHECK(out[0].rfind("next word after 'ran':", 0) == 0);
    CHECK(notes_of(StepId::AttnScores).empty());
}

TEST_CASE("top_k returns the largest entries, largest first, lower index on ties") {
    const float p[] = {0.1f, 0.4f, 0.2f, 0.4f, 0.05f};
    const auto top = top_k(p, 5, 3);
    REQUIRE(top.size() == 3u);
    CHECK(top[0].first == 1);
    CHECK(top[1].first == 3);
    CHECK(top[2].first == 2);
    CHECK(top_k(p, 5, 9).size() == 5u);
    CHECK(top_k(p, 5, 0).empty());
}

TEST_CASE("a saved lesson resumes with the articles' options and its recipe") {
    AppState before;
    AttentionConfig& c = before.session.config;
    c.recipe = "scratch-mha";
    c.init = InitKind::Torch;
    c.seq_len = 6;
    c.hidden_dim = 8;
    c.num_heads = 4;
    c.num_kv_heads = 2;
    c.mask_presets = parse_mask_presets("causal,window").value();
    c.window = 3;
    c.mask_fill = parse_mask_fill("-1e20").value();
    c.scale = parse_scale("hidden").value();
    c.mask_before_scale = true;
    c.rope = true;
    c.rope_style = RopeStyle::Interleaved;
    c.position_offset = 5;
    c.no_out_bias = true;
    c.average_weights = true;
    c.dtype = DType::BFloat16;
    before.session.tokens_from_sentence = false;
    store_config_in_settings(before);
    const UiSettings saved = parse_settings(serialize_settings(before.settings));
    AppState after;
    after.settings = saved;
    REQUIRE(english(restore_saved_session(after)).empty());
    const AttentionConfig& r = after.session.config;
    CHECK(r.recipe == "scratch-mha");
    CHECK(r.init == InitKind::Torch);
    CHECK(r.num_kv_heads == 2);
    CHECK(to_string(r.mask_presets) == to_string(c.mask_presets));
    CHECK(r.window == 3);
    CHECK(to_string(r.mask_fill) == "-1e20");
    CHECK(to_string(r.scale) == "hidden");
    CHECK(r.mask_before_scale);
    CHECK(r.rope);
    CHECK(r.rope_style == RopeStyle::Interleaved);
    CHECK(r.position_offset == 5);
    CHECK(r.no_out_bias);
    CHECK(r.average_weights);
    CHECK(r.dtype == DType::BFloat16);
}

TEST_CASE("after switching models the controls show the configuration on the canvas") {
    AppState state;
    compute_into(state);
    REQUIRE(choose_model(state.session, "tiny-lm").empty());
    compute_into(state);
    state.session.sentence = "two eight three nine four ten";
    REQUIRE(follow_model_sentence(state.session));
    compute_into(state);
    CHECK(state.results.trace->config.seq_len == 7);  // <bos> + 6 words
    CHECK(shown_config(state.session, state.results).seq_len == 7);
    CHECK(shown_config(state.session, state.results).mask == state.results.trace->config.mask);

    REQUIRE(choose_model(state.session, "reverse").empty());
    compute_into(state);
    const AttentionConfig& reverse = shown_config(state.session, state.results);
    CHECK(reverse.seq_len == state.results.trace->config.seq_len);
    CHECK_FALSE(reverse.has_mask());  // the reverse model has no mask: nothing is shown ticked

    REQUIRE(choose_model(state.session, "sort").empty());
    compute_into(state);
    CHECK(shown_config(state.session, state.results).seq_len == state.results.trace->config.seq_len);
    // Back to random weights: the controls edit the session's own configuration again.
    choose_random_weights(state.session, false);
    CHECK(&shown_config(state.session, state.results) == &state.session.config);
}

// Issue 28 item 16: painted cells and an opened mask file belong to the random weights'
// sizes; a trip through a trained model must not bring them back onto the new sizes.
TEST_CASE("a painted mask and a mask file do not come back after a trip through a trained model") {
    AppState state;
    compute_into(state);
    const int L = state.session.config.seq_len, S = state.session.config.S();
    REQUIRE(paint(state.session.painted_mask, L, S, 0, 0, PaintReach::Row));
    state.session.config.mask_file = Tensor::from_values({S}, {"S"}, std::vector<float>(static_cast<size_t>(S), 0.0f));
    state.session.config.mask_file_is_boolean = true;
    state.session.config.mask_file_path = "/tmp/pad.npy";
    state.session.sources.mask_path = "/tmp/pad.npy";
    compute_into(state);
    REQUIRE(has_painted_part(state.results.trace->config));

    REQUIRE(choose_model(state.session, "tiny-lm").empty());
    CHECK_FALSE(state.session.painted_mask.any());  // View > Clear painted mask has nothing to clear
    compute_into(state);
    SUBCASE("use random weights instead") { choose_random_weights(state.session, true); }
    SUBCASE("random (untrained)") { choose_random_weights(state.session, false); }
    CHECK_FALSE(state.session.painted_mask.any());
    CHECK(state.session.config.mask_file.empty());
    CHECK(state.session.sources.mask_path.empty());
    compute_into(state);
    CHECK_FALSE(has_painted_part(state.results.trace->config));
    CHECK(state.results.trace->count_fully_masked_rows() == 0);
}

// Issue 21 item 15: the card's button beside a claim puts the sentence that shows it into
// the box, on the claim's layer, and the trace that follows opens on the claim's head and
// its attention weights.
TEST_CASE("a claim's button takes its sentence and layer, then shows the claim's head on the attention weights") {
    AppState state;
    REQUIRE(choose_model(state.session, "tiny-lm").empty());
    compute_into(state);
    const ModelSpec& spec = state.session.model->spec;
    const auto claim = std::find_if(spec.head_claims.begin(), spec.head_claims.end(), [](const HeadClaim& c) {
        return c.layer == 0 && c.head == 2 && c.metric == "previous_token";
    });
    REQUIRE(claim != spec.head_claims.end());
    CHECK(english(claim->shown_by) == "two eight three nine four ten");  // the sentence
    REQUIRE(choose_layer(state.session, 1));
    CHECK(choose_claim_sentence(state.session, *claim));
    CHECK(state.session.sentence_in_use == "two eight three nine four ten");
    CHECK(state.session.model_layer == 0);
    CHECK(state.session.sentence_message.empty());
    // The card's lines name their claims, and only claims with a sentence get a button.
    int with_claim = 0;
    for (const CardLine& line : model_card(spec, 0)) with_claim += line.claim >= 0;
    CHECK(with_claim == std::count_if(spec.head_claims.begin(), spec.head_claims.end(), [](const HeadClaim& c) { return c.layer == 0; }));

    // What the button asks of the UI state (views/view_model.cpp; the click itself is
    // driven in tests/gui/monkey/model_claim_test.py) ...
    state.ui.resume_step = step_name(StepId::AttnWeights);
    state.ui.canvas.enlarged_head = claim->head;
    compute_into(state);  // ... is on screen once the trace arrives
    const Step* shown = state.results.step_at(state.ui.playback.step());
    REQUIRE(shown != nullptr);
    CHECK(shown->id == StepId::AttnWeights);
    CHECK(state.ui.canvas.enlarged_head == 2);
}

TEST_CASE("a claim's sentence follows the language: tiny-lm-zh gives traditional characters in zh-Hant") {
    test::LanguageScope scope("zh-Hant");
    AppState state;
    REQUIRE(choose_model(state.session, "tiny-lm-zh").empty());
    const ModelSpec& spec = state.session.model->spec;
    const auto claim = std::find_if(spec.head_claims.begin(), spec.head_claims.end(),
                                    [](const HeadClaim& c) { return c.metric == "then_to_object"; });
    REQUIRE(claim != spec.head_claims.end());
    CHECK(choose_claim_sentence(state.session, *claim));
    CHECK(state.session.sentence_in_use.find("然後") != std::string::npos);
    CHECK(state.session.sentence_in_use.find("然后") == std::string::npos);
    CHECK(state.session.model_layer == claim->layer);
    CHECK(state.session.unknown_note.empty());
}

namespace {

// The Simplified characters of tiny-lm-zh's vocabulary whose Traditional form differs
// (assets/models/tasks_zh.py, TO_TRADITIONAL), and those Traditional forms.
const std::vector<std::string> kSimplifiedOnly = {"见", "欢", "帮", "红", "丽", "伟", "张", "猫", "鸟", "马", "后", "垫", "飞", "发"};
const std::vector<std::string> kTraditionalOnly = {"見", "歡", "幫", "紅", "麗", "偉", "張", "貓", "鳥", "馬", "後", "墊", "飛", "發"};

// The characters of `words` (one list) that `text` contains.
std::vector<std::string> found_in(const std::string& text, const std::vector<std::string>& words) {
    std::vector<std::string> found;
    for (const std::string& w : words)
        if (text.find(w) != std::string::npos) found.push_back(w);
    return found;
}

// tiny-lm-zh computed on `sentence` (the card's example in the other script).
AppState tiny_lm_zh_on(const std::string& sentence) {
    AppState state;
    REQUIRE(choose_model(state.session, "tiny-lm-zh").empty());
    state.session.sentence = sentence;
    REQUIRE(follow_model_sentence(state.session));
    compute_into(state);
    return state;
}

}  // namespace

TEST_CASE("tiny-lm-zh's tokens and predictions are shown in the script of the language in use") {
    SUBCASE("zh-Hant: a Simplified sentence and every vocabulary token are drawn in Traditional") {
        test::LanguageScope scope("zh-Hant");
        const AppState state = tiny_lm_zh_on("小狗看见了小猫，它跑了。");
        const Trace& trace = *state.results.trace;
        const DisplayModel& model = *state.results.model;
        // The model's own tokens are untouched (its numbers come from them) ...
        CHECK(trace.model.tokens[4] == "见");
        CHECK(std::count(trace.model.vocabulary.begin(), trace.model.vocabulary.end(), "猫") == 1);
        // ... and everything drawn from them is Traditional: row labels, vocabulary labels.
        std::string drawn;
        for (const std::string& token : model.query_tokens) drawn += model.shown_token(token);
        for (const std::string& token : model.vocabulary) drawn += model.shown_token(token);
        CHECK(drawn.find("見") != std::string::npos);
        CHECK_MESSAGE(found_in(drawn, kSimplifiedOnly).empty(), drawn);
        const std::vector<std::string> notes = step_notes(trace, trace.index_of(StepId::NextTokenProbs), 0);
        REQUIRE(notes.size() >= 2);
        for (const std::string& note : notes) CHECK_MESSAGE(found_in(note, kSimplifiedOnly).empty(), note);
        CHECK(notes[1].rfind("「了」之後的下一個字：", 0) == 0);  // the row before the last, after 了
    }
    SUBCASE("zh-Hans: a Traditional sentence is drawn in Simplified") {
        test::LanguageScope scope("zh-Hans");
        const AppState state = tiny_lm_zh_on("小狗看見了小貓，它跑了。");
        const DisplayModel& model = *state.results.model;
        std::string drawn;
        for (const std::string& token : model.query_tokens) drawn += model.shown_token(token);
        for (const std::string& token : model.vocabulary) drawn += model.shown_token(token);
        CHECK(drawn.find("猫") != std::string::npos);
        CHECK_MESSAGE(found_in(drawn, kTraditionalOnly).empty(), drawn);
    }
    SUBCASE("English keeps the model's own spelling") {
        const AppState state = tiny_lm_zh_on("小狗看見了小貓，它跑了。");
        CHECK(state.results.model->shown_token("貓") == "貓");
    }
}

TEST_CASE("the tokens and next-token steps say what one token of the model is") {
    const AppState words = state_for_model("tiny-lm", 0);
    const AppState characters = state_for_model("tiny-lm-zh", 0);
    const auto words_of = [](const AppState& state, StepId id) {
        const Trace& trace = *state.results.trace;
        return text::describe_step(trace.steps[static_cast<size_t>(trace.index_of(id))], trace);
    };
    CHECK(words_of(words, StepId::NextTokenProbs).title == "Next-word probabilities");
    CHECK(words_of(characters, StepId::NextTokenProbs).title == "Next-character probabilities");
    CHECK(words_of(words, StepId::Tokens).explanation.find("cut at spaces") != std::string::npos);
    const text::StepText chinese_tokens = words_of(characters, StepId::Tokens);
    CHECK(chinese_tokens.explanation.find("cut at spaces") == std::string::npos);
    CHECK(chinese_tokens.explanation.find("lower case") == std::string::npos);
    CHECK(chinese_tokens.formula.find("character") != std::string::npos);
    {
        test::LanguageScope scope("zh-Hant");
        CHECK(words_of(characters, StepId::NextTokenProbs).title == "下一個字的機率");
        CHECK(words_of(characters, StepId::Tokens).formula.find("每個字") != std::string::npos);
        CHECK(words_of(words, StepId::NextTokenProbs).title == "下一個詞的機率");
    }
    const Trace& trace = *characters.results.trace;
    const std::vector<std::string> notes = step_notes(trace, trace.index_of(StepId::NextTokenProbs), 0);
    REQUIRE_FALSE(notes.empty());
    CHECK(notes[0].rfind("next character after '", 0) == 0);
}

TEST_CASE("the card's held-out figures are a list in the catalogue's own punctuation") {
    AppState state;
    REQUIRE(choose_model(state.session, "tiny-lm-zh").empty());
    const auto heldout_line = [&] {
        for (const std::string& line : model_card_lines(state.session.model->spec, 0))
            if (line.find(text::tr("model.metric.copied_word_accuracy")) != std::string::npos) return line;
        return std::string();
    };
    CHECK(heldout_line().find(", ") != std::string::npos);
    test::LanguageScope scope("zh-Hans");
    const std::string line = heldout_line();
    CHECK_MESSAGE(line.find(", ") == std::string::npos, line);
    CHECK_MESSAGE(line.find("、") != std::string::npos, line);
}
