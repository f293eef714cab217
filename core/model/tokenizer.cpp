#include "core/model/tokenizer.h"

#include <sstream>

namespace attn {

namespace {

int find_id(const ModelSpec& spec, const std::string& word) {
    for (size_t i = 0; i < spec.vocabulary.size(); ++i)
        if (spec.vocabulary[i] == word) return static_cast<int>(i);
    return -1;
}

}  // namespace

Result<TokenizedText> tokenize(const ModelSpec& spec, const std::string& text) {
    using R = Result<TokenizedText>;
    std::vector<std::string> words;
    std::istringstream in(text);
    for (std::string word; in >> word;) words.push_back(word);
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
        int id = find_id(spec, word);
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
