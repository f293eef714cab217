// The models' tokeniser and loader on bad input: unknown words become <unk> with a
// note, an empty or too long sentence and a bad model name are clear messages.
#include <doctest/doctest.h>

#include "app/io/model_loader.h"
#include "app/io/weight_names.h"
#include "core/model/model_forward.h"
#include "core/model/tokenizer.h"

using namespace attn;

static std::shared_ptr<const Model> load(const std::string& name) {
    Result<std::shared_ptr<const Model>> model = io::load_model(name);
    REQUIRE_MESSAGE(model.ok(), model.error());
    return model.value();
}

TEST_CASE("tiny-lm's tokeniser puts <bos> first and turns unknown words into <unk> with a note") {
    const auto model = load("tiny-lm");
    Result<TokenizedText> t = tokenize(model->spec, "the  cow saw the moon");
    REQUIRE(t.ok());
    CHECK(t->tokens == std::vector<std::string>{"<bos>", "the", "<unk>", "saw", "the", "<unk>"});
    CHECK(t->ids.front() == 2);
    CHECK(t->ids[2] == 1);
    CHECK(t->unknown_words == std::vector<std::string>{"cow", "moon"});
    CHECK(english(unknown_words_note(t->unknown_words)) == "unknown words shown as <unk>: 'cow', 'moon'");
    // The model runs on <unk> like on any other token.
    Result<ModelRun> run = run_model(*model, t->ids);
    REQUIRE(run.ok());
    CHECK(run->probs.rows() == 6);
}

// Issue 28: a learner's first sentence uses articles and commas; tiny-lm's grown vocabulary
// has them, so none of these words is <unk> any more.
TEST_CASE("tiny-lm knows the words a learner types first: a, an, the comma") {
    const auto model = load("tiny-lm");
    Result<TokenizedText> t = tokenize(model->spec, "A dog saw an old cat, and it ran.");
    REQUIRE(t.ok());
    CHECK(t->tokens == std::vector<std::string>{"<bos>", "a", "dog", "saw", "an", "old", "cat", ",", "and", "it", "ran", "."});
    CHECK(t->unknown_words.empty());
    CHECK(unknown_words_note(t->unknown_words).empty());
}

TEST_CASE("the algorithmic models take no <bos>") {
    Result<TokenizedText> t = tokenize(load("reverse")->spec, "3 1 4 1 5 9 2 6");
    REQUIRE(t.ok());
    CHECK(t->tokens.size() == 8);
    CHECK(t->tokens.front() == "3");
    CHECK(unknown_words_note(t->unknown_words).empty());
}

TEST_CASE("an empty or too long sentence is a message that says what to do") {
    const auto model = load("tiny-lm");
    for (const char* empty : {"", "   ", "\t"}) {
        Result<TokenizedText> t = tokenize(model->spec, empty);
        REQUIRE_FALSE(t.ok());
        CHECK(t.error().find("empty") != std::string::npos);
    }
    // max_len 16 with <bos>: 15 words fit, 16 do not.
    std::string words;
    for (int i = 0; i < 15; ++i) words += "the ";
    CHECK(tokenize(model->spec, words).ok());
    Result<TokenizedText> too_long = tokenize(model->spec, words + "cat");
    REQUIRE_FALSE(too_long.ok());
    CHECK(too_long.error() == "the sentence has 16 words but model 'tiny-lm' reads at most 15 (plus <bos>); shorten it");
    Result<TokenizedText> reverse_long = tokenize(load("reverse")->spec, "1 2 3 4 5 6 7 8 9");
    REQUIRE_FALSE(reverse_long.ok());
    CHECK(reverse_long.error().find("at most 8;") != std::string::npos);
}

TEST_CASE("typed capitals and trailing punctuation reach the model's own tokens") {
    const auto model = load("tiny-lm");
    Result<TokenizedText> t = tokenize(model->spec, "The Dog saw THE cat, and it ran. <x>");
    REQUIRE(t.ok());
    CHECK(t->tokens == std::vector<std::string>{"<bos>", "the", "dog", "saw", "the", "cat", ",", "and", "it",
                                                "ran", ".", "<unk>"});
    // The note names what the user typed.
    CHECK(t->unknown_words == std::vector<std::string>{"<x>"});
    // A lone "." is a word, not punctuation to peel.
    Result<TokenizedText> dot = tokenize(model->spec, ".");
    REQUIRE(dot.ok());
    CHECK(dot->tokens == std::vector<std::string>{"<bos>", "."});
}

TEST_CASE("tiny-lm-zh reads both scripts, one character a token, and names what it does not know") {
    const auto model = load("tiny-lm-zh");
    const ModelSpec& spec = model->spec;
    using Tokens = std::vector<std::string>;
    Result<TokenizedText> simplified = tokenize(spec, "小狗看见了小猫，它跑了。");
    Result<TokenizedText> traditional = tokenize(spec, "小狗看見了小貓，它跑了。");
    REQUIRE(simplified.ok());
    REQUIRE(traditional.ok());
    CHECK(simplified->tokens == Tokens{"<bos>", "小", "狗", "看", "见", "了", "小", "猫", "，", "它", "跑", "了", "。"});
    CHECK(traditional->tokens == Tokens{"<bos>", "小", "狗", "看", "見", "了", "小", "貓", "，", "它", "跑", "了", "。"});
    CHECK(simplified->unknown_words.empty());
    CHECK(traditional->unknown_words.empty());
    // 见 and 見 are two tokens of one vocabulary; 小 is shared.
    CHECK(simplified->ids[4] != traditional->ids[4]);
    CHECK(simplified->ids[1] == traditional->ids[1]);
    // Spaces change nothing; a Latin word stays whole and becomes one <unk>.
    Result<TokenizedText> spaced = tokenize(spec, "小狗 看见了 小猫 ， 它 跑了 。");
    REQUIRE(spaced.ok());
    CHECK(spaced->ids == simplified->ids);
    Result<TokenizedText> mixed = tokenize(spec, "我的GPU很快");
    REQUIRE(mixed.ok());
    CHECK(mixed->tokens.size() == 6);
    CHECK(mixed->unknown_words == Tokens{"我", "的", "GPU", "很", "快"});
    // Both scripts run and predict the same next character after 它 (the dog's habit, 跑).
    for (const auto* t : {&simplified, &traditional}) {
        Result<ModelRun> run = run_model(*model, (*t)->ids);
        REQUIRE(run.ok());
        Eigen::Index best = 0;
        run->probs.row(9).maxCoeff(&best);
        CHECK(spec.vocabulary[static_cast<size_t>(best)] == "跑");
    }
}

TEST_CASE("an unknown model name lists the models there are") {
    Result<std::shared_ptr<const Model>> missing = io::load_model("gpt-5");
    REQUIRE_FALSE(missing.ok());
    CHECK(missing.error() == "no model called 'gpt-5'; the models are induction, tiny-llama, tiny-lm, tiny-lm-zh, reverse, sort (or give the path of a card .json)");
    Result<std::shared_ptr<const Model>> no_file = io::load_model("/nonexistent/model.json");
    REQUIRE_FALSE(no_file.ok());
    CHECK(no_file.error().find("/nonexistent/model.json") != std::string::npos);
}

TEST_CASE("a model loads from its card's path with the weights beside it") {
    const std::string card = std::string(ATTNVIZ_SOURCE_DIR) + "/assets/models/sort.json";
    const auto from_path = load(card);
    const auto embedded = load("sort");
    CHECK(from_path->spec.name == "sort");
    CHECK(from_path->weights.lm_head == embedded->weights.lm_head);
    CHECK(from_path->weights.layers[0].attn.w_q == embedded->weights.layers[0].attn.w_q);
}

TEST_CASE("a layer prefix picks one layer's attention out of a multi-layer file") {
    Result<io::NamedTensors> tensors = io::read_safetensors(std::string(ATTNVIZ_SOURCE_DIR) + "/assets/models/tiny-lm.safetensors");
    REQUIRE(tensors.ok());
    // Unscoped, the two layers are ambiguous, as before.
    Result<io::LoadedWeights> whole = io::weights_from_tensors(tensors.value(), "tiny-lm");
    REQUIRE_FALSE(whole.ok());
    CHECK(whole.error().find("several tensors end in") != std::string::npos);
    Result<io::LoadedWeights> layer1 = io::weights_from_tensors_under(tensors.value(), "layers.1.attn.", "tiny-lm");
    REQUIRE_MESSAGE(layer1.ok(), layer1.error());
    CHECK(layer1->hidden_dim == 64);
    CHECK(layer1->naming == "huggingface");
    CHECK(layer1->weights.w_o == load("tiny-lm")->weights.layers[1].attn.w_o);
    Result<io::LoadedWeights> none = io::weights_from_tensors_under(tensors.value(), "layers.7.attn.", "tiny-lm");
    REQUIRE_FALSE(none.ok());
    CHECK(none.error() == "tiny-lm: no tensor names start with 'layers.7.attn.'");
}
