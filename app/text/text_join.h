// Lists and sentence joins are text of the language, not code: English writes "a, b" and
// "One. Two.", Chinese 「甲、乙」 and 「一。二。」 with no space after 。. The separators are
// the catalogue's text.list_separator, text.clause_separator and text.sentence_separator.
#pragma once

#include <string>
#include <vector>

#include "app/text/languages.h"

namespace attn::text {

// `first` and `second` as two sentences of one paragraph; either may be empty.
std::string join_sentences(const std::string& first, const std::string& second, const Catalogue& catalogue = active());
// "a, b, c" / 「甲、乙、丙」: items of a list.
std::string join_list(const std::vector<std::string>& items, const Catalogue& catalogue = active());
// "a; b" / 「甲；乙」: clauses that each say something of their own.
std::string join_clauses(const std::vector<std::string>& clauses, const Catalogue& catalogue = active());

}  // namespace attn::text
