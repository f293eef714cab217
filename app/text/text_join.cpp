#include "app/text/text_join.h"

namespace attn::text {
namespace {

std::string joined(const std::vector<std::string>& parts, const char* separator) {
    std::string all;
    for (const std::string& part : parts) {
        if (part.empty()) continue;
        if (!all.empty()) all += separator;
        all += part;
    }
    return all;
}

}  // namespace

std::string join_sentences(const std::string& first, const std::string& second, const Catalogue& catalogue) {
    return joined({first, second}, catalogue.text("text.sentence_separator"));
}

std::string join_list(const std::vector<std::string>& items, const Catalogue& catalogue) {
    return joined(items, catalogue.text("text.list_separator"));
}

std::string join_clauses(const std::vector<std::string>& clauses, const Catalogue& catalogue) {
    return joined(clauses, catalogue.text("text.clause_separator"));
}

}  // namespace attn::text
