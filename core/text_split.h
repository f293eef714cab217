// Sentences typed by a learner, cut into tokens: words at white space, and inside a word
// every Chinese character and every full-width punctuation mark a token of its own, so
// "我的GPU很快。" and "我的 GPU 很快。" are 我, 的, GPU, 很, 快, 。 (Latin words and numbers
// stay whole). The text is UTF-8; a multi-byte character is never cut.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

namespace attn {

// Byte offset of the first byte that does not start or continue a well-formed UTF-8
// character (overlong forms, surrogates and values above U+10FFFF included); nullopt
// when the whole text is valid.
std::optional<size_t> first_invalid_utf8(const std::string& text);

// Number of characters (code points) in valid UTF-8; an invalid byte counts as one.
size_t utf8_length(const std::string& text);

// The first `chars` characters of `text` (all of it when it is shorter).
std::string utf8_prefix(const std::string& text, size_t chars);

// Cuts `text` into tokens as described above. Invalid bytes stay inside the word they
// are in (callers check first_invalid_utf8 to report them).
std::vector<std::string> split_text_tokens(const std::string& text);

}  // namespace attn
