// A trained model's tokens in the script of the language in use. tiny-lm-zh's vocabulary
// holds both 猫 and 貓 (it was trained on both scripts), so a zh-Hant window would list
// the model's guess 猫 in Simplified; shown through the card's script forms it reads 貓.
// Only what is drawn changes: the model's numbers, its token ids and the token strings of
// the exports (tokens.json, manifest.json) stay the model's own.
#pragma once

#include <string>
#include <vector>

#include "app/text/languages.h"
#include "core/vocabulary.h"

namespace attn::text {

// `token` as a reader of `catalogue`'s language sees it: its form in that language's
// script from `forms` (the card's "script_forms"), else `token` itself.
const std::string& shown_token(const ScriptForms& forms, const std::string& token, const Catalogue& catalogue = active());

}  // namespace attn::text
