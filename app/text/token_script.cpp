#include "app/text/token_script.h"

namespace attn::text {

const std::string& shown_token(const ScriptForms& forms, const std::string& token, const Catalogue& catalogue) {
    const auto language = forms.find(catalogue.code());
    if (language == forms.end()) return token;
    const auto form = language->second.find(token);
    return form == language->second.end() ? token : form->second;
}

}  // namespace attn::text
