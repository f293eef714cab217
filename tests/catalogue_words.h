// Sentences a test looks for, taken from the catalogue by key, so a test never repeats
// the English of assets/lang/en.json (a reworded sentence does not break it). For a whole
// sentence with known values use text::trf(key, {...}); these two give the part of a
// sentence a test can know when some of its values come from elsewhere.
#pragma once

#include <algorithm>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "app/text/languages.h"
#include "app/text/text_template.h"

namespace attn::testing {

// Where each {name} of `pattern` stands: (start, one past the closing brace), in order.
inline std::vector<std::pair<size_t, size_t>> placeholder_spans(const std::string& pattern) {
    std::vector<std::pair<size_t, size_t>> spans;
    for (const std::string& name : text::template_parameters(pattern)) {
        const std::string marker = "{" + name + "}";
        for (size_t at = pattern.find(marker); at != std::string::npos; at = pattern.find(marker, at + 1))
            spans.emplace_back(at, at + marker.size());
    }
    std::sort(spans.begin(), spans.end());
    return spans;
}

// The text of `key` with `params` filled in, up to the first placeholder left unfilled,
// trailing spaces dropped: opening("inspector.tokens", {{"id", 3}}) is "token id 3: the word".
inline std::string opening(std::string_view key, text::Params params = {}) {
    const std::string pattern = text::tr(key);
    size_t cut = pattern.size();
    for (const auto& [start, end] : placeholder_spans(pattern)) {
        const std::string_view name(pattern.data() + start + 1, end - start - 2);
        const bool given =
            std::any_of(params.begin(), params.end(), [&](const text::Param& p) { return p.name == name; });
        if (!given) {
            cut = start;
            break;
        }
    }
    std::string head = text::fill_template(std::string_view(pattern).substr(0, cut), params);
    while (!head.empty() && head.back() == ' ') head.pop_back();
    return head;
}

// The words of `key` that stand right before `{name}`, from the previous placeholder (or
// the start): words_before("inspector.softmax.row", "max") is ": subtract the row max ".
inline std::string words_before(std::string_view key, std::string_view name) {
    const std::string pattern = text::tr(key);
    size_t from = 0;
    for (const auto& [start, end] : placeholder_spans(pattern)) {
        if (pattern.compare(start + 1, end - start - 2, name) == 0) return pattern.substr(from, start - from);
        from = end;
    }
    return text::missing_marker(name);  // fails the test's search, visibly
}

// The words of `key` that follow `{name}`, up to the next placeholder (or the end):
// words_after("explain.fully_masked_rows", "rows") is " query row(s) have every key ...".
inline std::string words_after(std::string_view key, std::string_view name) {
    const std::string pattern = text::tr(key);
    const auto spans = placeholder_spans(pattern);
    for (size_t i = 0; i < spans.size(); ++i) {
        if (pattern.compare(spans[i].first + 1, spans[i].second - spans[i].first - 2, name) != 0) continue;
        const size_t to = i + 1 < spans.size() ? spans[i + 1].first : pattern.size();
        return pattern.substr(spans[i].second, to - spans[i].second);
    }
    return text::missing_marker(name);
}

}  // namespace attn::testing
