#include "core/text_split.h"

#include <algorithm>

namespace attn {

namespace {

// One character read at `pos`: its code point and byte length; length 0 marks an
// invalid sequence (the caller then steps over one byte).
struct Char {
    char32_t code = 0;
    size_t bytes = 0;
};

Char read_char(const std::string& text, size_t pos) {
    const auto byte = [&](size_t k) { return static_cast<unsigned char>(text[k]); };
    const unsigned char lead = byte(pos);
    if (lead < 0x80) return {lead, 1};
    // Lead byte ranges of the 2-, 3- and 4-byte forms (C0, C1 and F5..FF start nothing).
    const size_t bytes = lead >= 0xC2 && lead <= 0xDF ? 2 : lead >= 0xE0 && lead <= 0xEF ? 3 : lead >= 0xF0 && lead <= 0xF4 ? 4 : 0;
    if (bytes == 0 || pos + bytes > text.size()) return {};
    char32_t code = lead & (0x7F >> bytes);
    for (size_t k = 1; k < bytes; ++k) {
        if ((byte(pos + k) & 0xC0) != 0x80) return {};
        code = (code << 6) | (byte(pos + k) & 0x3F);
    }
    const char32_t smallest[] = {0, 0, 0x80, 0x800, 0x10000};
    if (code < smallest[bytes] || code > 0x10FFFF || (code >= 0xD800 && code <= 0xDFFF)) return {};
    return {code, bytes};
}

bool is_space(char32_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f' || c == 0x3000; }

// Han ideographs (the unified blocks, extension A, compatibility ideographs, the
// supplementary planes' extensions): one character is one token.
bool is_han(char32_t c) {
    return (c >= 0x4E00 && c <= 0x9FFF) || (c >= 0x3400 && c <= 0x4DBF) || (c >= 0xF900 && c <= 0xFAFF) ||
           (c >= 0x20000 && c <= 0x3FFFF);
}

// Chinese punctuation: the CJK symbols block (、。「」《》...), the full-width forms'
// punctuation (，！？：；（）...; full-width letters and digits stay in words), the
// corner-free quotes “” and the ellipsis and dash Chinese text uses (…, —).
bool is_cjk_punctuation(char32_t c) {
    const bool fullwidth_letter_or_digit = (c >= 0xFF10 && c <= 0xFF19) || (c >= 0xFF21 && c <= 0xFF3A) || (c >= 0xFF41 && c <= 0xFF5A);
    return (c >= 0x3001 && c <= 0x303F) || (c >= 0xFF01 && c <= 0xFF65 && !fullwidth_letter_or_digit) ||
           c == 0x201C || c == 0x201D || c == 0x2026 || c == 0x2014;
}

}  // namespace

std::optional<size_t> first_invalid_utf8(const std::string& text) {
    for (size_t pos = 0; pos < text.size();) {
        const Char ch = read_char(text, pos);
        if (ch.bytes == 0) return pos;
        pos += ch.bytes;
    }
    return std::nullopt;
}

size_t utf8_length(const std::string& text) {
    size_t count = 0;
    for (size_t pos = 0; pos < text.size(); ++count) pos += std::max<size_t>(1, read_char(text, pos).bytes);
    return count;
}

std::string utf8_prefix(const std::string& text, size_t chars) {
    size_t pos = 0;
    for (size_t n = 0; n < chars && pos < text.size(); ++n) pos += std::max<size_t>(1, read_char(text, pos).bytes);
    return text.substr(0, pos);
}

std::vector<std::string> split_text_tokens(const std::string& text) {
    std::vector<std::string> tokens;
    std::string word;
    const auto end_word = [&] {
        if (!word.empty()) tokens.push_back(word);
        word.clear();
    };
    for (size_t pos = 0; pos < text.size();) {
        const Char ch = read_char(text, pos);
        const size_t bytes = std::max<size_t>(1, ch.bytes);
        if (ch.bytes != 0 && is_space(ch.code)) {
            end_word();
        } else if (ch.bytes != 0 && (is_han(ch.code) || is_cjk_punctuation(ch.code))) {
            end_word();
            tokens.push_back(text.substr(pos, bytes));
        } else {
            word += text.substr(pos, bytes);
        }
        pos += bytes;
    }
    end_word();
    return tokens;
}

}  // namespace attn
