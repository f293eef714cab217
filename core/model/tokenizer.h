// The example models' tokeniser: words separated by spaces, looked up in the card's
// vocabulary; an unknown word becomes <unk> (and is reported, never fatal).
#pragma once

#include <string>
#include <vector>

#include "core/model/model.h"
#include "core/result.h"

namespace attn {

// The token a model that wants it reads before the words (ModelSpec::prepend_bos).
inline constexpr const char* kBosToken = "<bos>";

struct TokenizedText {
    std::vector<int> ids;                    // (L) token ids
    std::vector<std::string> tokens;         // (L) the vocabulary's spelling ("<unk>" for unknown words)
    std::vector<std::string> unknown_words;  // the words that became <unk>, in order
};

// Splits `text` on spaces (and tabs/newlines) and peels trailing punctuation (. , ! ? ; :)
// into tokens of its own; a word the vocabulary lacks is tried in lower case before it
// becomes <unk>. Prepends <bos> when the model wants it.
// Fails, with a message that says what to do, on an empty text or one longer than max_len.
Result<TokenizedText> tokenize(const ModelSpec& spec, const std::string& text);

// "unknown word(s) shown as <unk>: 'cow', 'moon'" as a message (model.unknown_words.one /
// .many); empty when every word was known.
Message unknown_words_note(const std::vector<std::string>& unknown_words);

}  // namespace attn
