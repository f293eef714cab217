// Typed sentences cut into tokens (core/text_split.h): Chinese characters and full-width
// punctuation one token each, Latin words and numbers whole, UTF-8 never cut, invalid
// UTF-8 found and reported (never a crash).
#include <doctest/doctest.h>

#include "app/io/problem.h"
#include "core/model/tokenizer.h"
#include "core/text_split.h"

using namespace attn;
using Tokens = std::vector<std::string>;

TEST_CASE("Chinese characters are one token each while Latin words and numbers stay whole") {
    CHECK(split_text_tokens("我的 GPU 很快") == Tokens{"我", "的", "GPU", "很", "快"});
    CHECK(split_text_tokens("我的GPU很快") == Tokens{"我", "的", "GPU", "很", "快"});
    CHECK(split_text_tokens("我有2048个token") == Tokens{"我", "有", "2048", "个", "token"});
    CHECK(split_text_tokens("小狗看見了小貓") == Tokens{"小", "狗", "看", "見", "了", "小", "貓"});
    // English is cut at white space only, as before (ASCII punctuation stays attached).
    CHECK(split_text_tokens("the cat sat.  on\tthe mat") == Tokens{"the", "cat", "sat.", "on", "the", "mat"});
    CHECK(split_text_tokens("").empty());
    CHECK(split_text_tokens(" \t\n").empty());
}

TEST_CASE("full-width punctuation is a token of its own and the ideographic space separates") {
    CHECK(split_text_tokens("你好，世界。") == Tokens{"你", "好", "，", "世", "界", "。"});
    CHECK(split_text_tokens("真的！？好、好：是；「對」") ==
          Tokens{"真", "的", "！", "？", "好", "、", "好", "：", "是", "；", "「", "對", "」"});
    CHECK(split_text_tokens("GPU，CPU") == Tokens{"GPU", "，", "CPU"});
    CHECK(split_text_tokens("甲\u3000乙") == Tokens{"甲", "乙"});
    // Full-width letters and digits are a word, not punctuation.
    CHECK(split_text_tokens("ＧＰＵ１２") == Tokens{"ＧＰＵ１２"});
    // A character outside the basic plane (extension B) is one token of 4 bytes.
    CHECK(split_text_tokens("\xF0\xA0\x80\x80好") == Tokens{"\xF0\xA0\x80\x80", "好"});
}

TEST_CASE("random weights' sentences split the same way, sentence by sentence") {
    const auto sentences = io::split_sentences("我的 GPU 很快 | 小狗看见了猫。");
    REQUIRE(sentences.size() == 2);
    CHECK(sentences[0] == Tokens{"我", "的", "GPU", "很", "快"});
    CHECK(sentences[1] == Tokens{"小", "狗", "看", "见", "了", "猫", "。"});
}

TEST_CASE("invalid UTF-8 is found at its byte and never cut into a token") {
    CHECK_FALSE(first_invalid_utf8("我的 GPU 很快").has_value());
    CHECK_FALSE(first_invalid_utf8("").has_value());
    const std::string cut = std::string("我").substr(0, 2);  // a 3-byte character missing its last byte
    CHECK(first_invalid_utf8("ab" + cut) == std::optional<size_t>(2));
    CHECK(first_invalid_utf8("a\xFF") == std::optional<size_t>(1));
    CHECK(first_invalid_utf8("\xC0\xAF") == std::optional<size_t>(0));          // overlong '/'
    CHECK(first_invalid_utf8("\xED\xA0\x80") == std::optional<size_t>(0));      // a surrogate
    CHECK(first_invalid_utf8("\xF4\x90\x80\x80") == std::optional<size_t>(0));  // above U+10FFFF
    CHECK(first_invalid_utf8("x\x80") == std::optional<size_t>(1));             // a lone continuation
    // Splitting such text does not crash and loses no byte.
    std::string joined;
    for (const std::string& t : split_text_tokens("好\xFF" + cut + "猫")) joined += t;
    CHECK(joined == "好\xFF" + cut + "猫");
}

TEST_CASE("characters are counted and cut whole, not by bytes") {
    CHECK(utf8_length("我的GPU") == 5);
    CHECK(utf8_length("") == 0);
    CHECK(utf8_prefix("我的GPU", 2) == "我的");
    CHECK(utf8_prefix("我的GPU", 3) == "我的G");
    CHECK(utf8_prefix("猫", 9) == "猫");
}

TEST_CASE("a model's tokeniser reports invalid UTF-8 with a message instead of a token") {
    ModelSpec spec;
    spec.name = "toy";
    spec.vocabulary = {"<pad>", "<unk>", "<bos>", "猫"};
    spec.max_len = 8;
    Result<TokenizedText> bad = tokenize(spec, "猫\xFF");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.error().find("UTF-8") != std::string::npos);
    CHECK(bad.error().find("3") != std::string::npos);  // the byte where it goes wrong
    Result<TokenizedText> good = tokenize(spec, "猫猫 dog");
    REQUIRE(good.ok());
    CHECK(good->tokens == Tokens{"猫", "猫", "<unk>"});
    CHECK(good->unknown_words == Tokens{"dog"});
}
