#include "core/model/tokenizer.h"

#include <cctype>
#include <cstring>
#include <sstream>

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

// Cuts the text at white space, then peels sentence punctuation off the end of each word
// ("ran." -> "ran", "."), as people type it: the models were trained on separate tokens.
std::vector<std::string> split_words(const std::string& text) {
    std::vector<std::string> words;
    std::istringstream in(text);
    for (std::string word; in >> word;) {
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
    const std::vector<std::string> words = split_words(text);
    if (words.empty())
        return R::failure("the sentence is empty; type some words for model '" + spec.name + "' (for example: " +
                          spec.example + ")");
    const size_t bos = spec.prepend_bos ? 1 : 0;
    if (words.size() + bos > static_cast<size_t>(spec.max_len))
        return R::failure("the sentence has " + std::to_string(words.size()) + " words but model '" + spec.name +
                          "' reads at most " + std::to_string(spec.max_len - static_cast<int>(bos)) +
                          (bos ? " (plus <bos>)" : "") + "; shorten it");
    const int unk = find_id(spec, "<unk>");
    TokenizedText out;
    if (spec.prepend_bos) {
        const int bos_id = find_id(spec, "<bos>");
        if (bos_id < 0) return R::failure("model '" + spec.name + "' wants <bos> but its vocabulary has none");
        out.ids.push_back(bos_id);
        out.tokens.push_back("<bos>");
    }
    for (const std::string& word : words) {
        int id = find_word(spec, word);
        if (id < 0) {
            if (unk < 0) return R::failure("'" + word + "' is not in model '" + spec.name + "'s vocabulary");
            out.unknown_words.push_back(word);
            id = unk;
        }
        out.ids.push_back(id);
        out.tokens.push_back(spec.vocabulary[static_cast<size_t>(id)]);
    }
    return out;
}

std::string unknown_words_note(const TokenizedText& tokens) {
    if (tokens.unknown_words.empty()) return "";
    std::string note = tokens.unknown_words.size() == 1 ? "unknown word shown as <unk>: " : "unknown words shown as <unk>: ";
    for (size_t i = 0; i < tokens.unknown_words.size(); ++i)
        note += (i ? ", '" : "'") + tokens.unknown_words[i] + "'";
    return note;
}

}  // namespace attn
