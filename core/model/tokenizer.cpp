#include "core/model/tokenizer.h"

#include <cctype>
#include <cstring>
#include <optional>

#include "core/text_split.h"

namespace attn {

namespace {

int find_id(const ModelSpec& spec, const std::string& word) {
    for (size_t i = 0; i < spec.vocabulary.size(); ++i)
        if (spec.vocabulary[i] == word) return static_cast<int>(i);
    return -1;
}

// What a typed word means to a model whose vocabulary is lower-case words and ".": the
// word as typed if the vocabulary has it, else its lower-case spelling if that is known.
int find_word(const ModelSpec& spec, const std::string& word) {
    const int id = find_id(spec, word);
    if (id >= 0) return id;
    std::string lower = word;
    for (char& ch : lower) ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
    return find_id(spec, lower);
}

// Cuts the text at white space and around Chinese characters (core/text_split.h), then
// peels sentence punctuation off the end of each word ("ran." -> "ran", "."), as people
// type it: the models were trained on separate tokens.
std::vector<std::string> split_words(const std::string& text) {
    std::vector<std::string> words;
    for (const std::string& word : split_text_tokens(text)) {
        size_t end = word.size();
        while (end > 1 && std::strchr(".,!?;:", word[end - 1]) != nullptr) --end;
        words.push_back(word.substr(0, end));
        for (size_t i = end; i < word.size(); ++i) words.emplace_back(1, word[i]);
    }
    return words;
}

}  // namespace

Result<TokenizedText> tokenize(const ModelSpec& spec, const std::string& text) {
    using R = Result<TokenizedText>;
    if (const std::optional<size_t> bad = first_invalid_utf8(text))
        return R::failure(Message("error.text.invalid_utf8", {{"byte", static_cast<int64_t>(*bad)}}));
    const std::vector<std::string> words = split_words(text);
    if (words.empty())
        return R::failure(Message("error.model.empty_sentence", {{"model", spec.name}, {"example", spec.example}}));
    const size_t bos = spec.prepend_bos ? 1 : 0;
    if (words.size() + bos > static_cast<size_t>(spec.max_len))
        return R::failure(Message(bos ? "error.model.too_many_words_bos" : "error.model.too_many_words",
                                  {{"words", words.size()}, {"model", spec.name}, {"max", spec.max_len - static_cast<int>(bos)}}));
    const int unk = find_id(spec, "<unk>");
    TokenizedText out;
    if (spec.prepend_bos) {
        const int bos_id = find_id(spec, kBosToken);
        if (bos_id < 0) return R::failure(Message("error.model.no_bos", {{"model", spec.name}}));
        out.ids.push_back(bos_id);
        out.tokens.push_back(kBosToken);
    }
    for (const std::string& word : words) {
        int id = find_word(spec, word);
        if (id < 0) {
            if (unk < 0) return R::failure(Message("error.model.unknown_word", {{"word", word}, {"model", spec.name}}));
            out.unknown_words.push_back(word);
            id = unk;
        }
        out.ids.push_back(id);
        out.tokens.push_back(spec.vocabulary[static_cast<size_t>(id)]);
    }
    return out;
}

Message unknown_words_note(const std::vector<std::string>& unknown_words) {
    if (unknown_words.empty()) return Message();
    return Message(unknown_words.size() == 1 ? "model.unknown_words.one" : "model.unknown_words.many",
                   {{"words", quoted_list(unknown_words)}});
}

}  // namespace attn
