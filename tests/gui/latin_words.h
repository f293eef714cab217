// What counts as an English word in text drawn in a Chinese language, for the window tests
// of both scripts (tests/gui/test_gui_chinese_text.cpp headless, monkey/chinese_window_test.py
// under Xvfb, which reads the same allowed list).
//
// A word is a run of two or more ASCII letters standing alone: letters joined to digits or
// an underscore (q_heads, fp32, d_h) are identifiers or shapes, single letters are the
// dimension names (B, L, S, H). A word is English unless latin_words_allowed.txt lists it
// (code identifiers such as softmax, names such as PyTorch), case aside.
#pragma once

#include <cctype>
#include <fstream>
#include <set>
#include <string>
#include <vector>

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

// The English words of `text` (the allowed list's aside).
inline std::vector<std::string> english_words(const std::string& text) {
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
        const std::string token = text.substr(i, end - i);
        if (letters_only && token.size() >= 2 && !allowed_latin_words().count(lowercase(token))) found.push_back(token);
        i = end;
    }
    return found;
}

}  // namespace attn::gui::testing
