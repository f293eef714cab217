// What a trained model's tokens are, beyond their spelling: the unit one token stands for
// and, for a vocabulary that holds a word in two scripts, each token's form per script.
// Both are declared by the model card (app/io/model_card.cpp); the core only carries them
// from the card to the trace, and the texts and views choose by them.
#pragma once

#include <map>
#include <string>

namespace attn {

// What one token of the vocabulary is. The texts that say how a sentence is cut into
// tokens and what the model predicts are chosen by it (app/text/step_text.h).
enum class TokenUnit {
    Word,       // tiny-lm: "dog", "." (the sentence is cut at spaces)
    Character,  // tiny-lm-zh: 狗, 。 (every Chinese character is a token)
};
// "word" / "character": the card's "token_unit".
inline const char* to_string(TokenUnit unit) { return unit == TokenUnit::Character ? "character" : "word"; }

// Language code -> (token -> the same token written in that language's script), for a
// vocabulary that holds both scripts (tiny-lm-zh: "zh-Hant": {"猫": "貓", ...}, "zh-Hans":
// {"貓": "猫", ...}). A token missing from a language's table is shown as it is.
using ScriptForms = std::map<std::string, std::map<std::string, std::string>>;

}  // namespace attn
