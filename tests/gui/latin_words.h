// What counts as an English word in text drawn in a Chinese language, for the window tests
// of both scripts (tests/gui/test_gui_chinese_text.cpp headless; under Xvfb,
// monkey/chinese_window_test.py hands what the window drew to checker/text_check.cpp).
//
// A word is a run of two or more ASCII letters standing alone: letters joined to digits or
// an underscore (q_heads, fp32, d_h) are identifiers or shapes, single letters are the
// dimension names (B, L, S, H). A word is English unless latin_words_allowed.txt lists it
// (code identifiers such as softmax, names such as PyTorch), case aside, or it is a gloss:
// English alone in full-width brackets after a Chinese term, 遮罩（mask）, as the glossary
// asks on a term's first use.
#pragma once

#include <cctype>
#include <cstring>
#include <fstream>
#include <set>
#include <string>
#include <vector>

#include "app/io/model_loader.h"
#include "core/recipe.h"
#include "core/step_id.h"

namespace attn::gui::testing {

inline std::string lowercase(std::string s) {
    for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    return s;
}

// tests/gui/latin_words_allowed.txt, lowercased ("#" starts a comment).
inline const std::set<std::string>& allowed_latin_words() {
    static const std::set<std::string> words = [] {
        std::set<std::string> out;
        std::ifstream in(ATTNVIZ_SOURCE_DIR "/tests/gui/latin_words_allowed.txt");
        for (std::string line; std::getline(in, line);) {
            line = line.substr(0, line.find('#'));
            while (!line.empty() && std::isspace(static_cast<unsigned char>(line.back()))) line.pop_back();
            if (!line.empty()) out.insert(lowercase(line));
        }
        return out;
    }();
    return words;
}

// True when `text` holds a CJK ideograph (U+4E00..U+9FFF: UTF-8 lead bytes E4..E9).
inline bool has_ideograph(const std::string& text) {
    for (unsigned char c : text)
        if (c >= 0xE4 && c <= 0xE9) return true;
    return false;
}

// `text` without its glosses: what full-width brackets hold when it has no ideograph
// (（mask）, （rotary position embedding，RoPE）), also when a wrapped line cut the
// gloss, so one run has only its opening bracket and the next only its closing one.
inline std::string without_glosses(const std::string& text) {
    static const std::string open = "\xEF\xBC\x88", close = "\xEF\xBC\x89";  // （ ）
    std::string out = text;
    if (const size_t end = out.find(close); end != std::string::npos && out.rfind(open, end) == std::string::npos &&
                                            !has_ideograph(out.substr(0, end)))
        out = out.substr(end);
    for (size_t at = out.find(open); at != std::string::npos; at = out.find(open, at + open.size())) {
        const size_t end = out.find(close, at);
        const std::string inside = out.substr(at + open.size(), end == std::string::npos ? std::string::npos : end - at - open.size());
        if (!has_ideograph(inside)) out.erase(at + open.size(), inside.size());
    }
    return out;
}

// The English words of `raw` (the allowed list's, `also_allowed`'s and the glosses aside).
// A word at a cut edge (DrawnRun::cut_start / cut_end) may be the visible part of a longer
// one, so it is not judged.
inline std::vector<std::string> english_words(const std::string& raw, const std::set<std::string>& also_allowed = {},
                                              bool cut_start = false, bool cut_end = false) {
    const std::string text = without_glosses(raw);
    std::vector<std::string> found;
    const auto is_part = [](unsigned char c) { return std::isalnum(c) || c == '_'; };
    for (size_t i = 0; i < text.size();) {
        if (!is_part(static_cast<unsigned char>(text[i]))) {
            ++i;
            continue;
        }
        size_t end = i;
        bool letters_only = true;
        while (end < text.size() && is_part(static_cast<unsigned char>(text[end])))
            letters_only &= std::isalpha(static_cast<unsigned char>(text[end++])) != 0;
        const std::string word = lowercase(text.substr(i, end - i));
        // "--num-kv-heads": a command-line option is code.
        const bool option = i >= 2 && text.compare(i - 2, 2, "--") == 0;
        // A word the window itself shortened ("<bo~") or a name or call ("rotate(K)",
        // "scores[mask]", "softmax(scores,") is not judged either.
        const auto next_is = [&](const char* marks) { return end < text.size() && std::strchr(marks, text[end]); };
        const bool at_cut = (cut_start && i == 0) || (cut_end && end == text.size()) || next_is("~([") ||
                            (i > 0 && text[i - 1] == '[') || (i > 1 && text[i - 1] == '(' && is_part(static_cast<unsigned char>(text[i - 2]))) ||
                            (i > 0 && text[i - 1] == '-' && next_is("-"));  // inside a name: LLM-from-scratch
        if (letters_only && word.size() >= 2 && !option && !at_cut && !allowed_latin_words().count(word) &&
            !also_allowed.count(word))
            found.push_back(text.substr(i, end - i));
        i = end;
        while (option && i < text.size() && (text[i] == '-' || is_part(static_cast<unsigned char>(text[i])))) ++i;
    }
    return found;
}

// The lowercase words of `text` (for also_allowed: names and data the window shows as they are).
inline std::set<std::string> words_of(const std::string& text) {
    std::set<std::string> words;
    std::string word;
    for (char c : text + " ") {
        if (std::isalpha(static_cast<unsigned char>(c))) word += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
        else if (!word.empty()) words.insert(word), word.clear();
    }
    return words;
}

// Names the window shows as they are in every language: step names, recipe and model
// names, the articles' titles (a test adds the sentences it typed and the folders it listed).
inline std::set<std::string> shown_names() {
    std::set<std::string> names;
    for (StepId id : kAllStepIds) names.insert(lowercase(std::string(step_name(id))));
    for (const Recipe& r : recipes())
        for (const std::string& text : {r.name, r.article})
            for (const std::string& w : words_of(text)) names.insert(w);
    for (const ModelSpec& m : io::list_models())
        for (const std::string& w : words_of(m.name)) names.insert(w);
    return names;
}

}  // namespace attn::gui::testing
