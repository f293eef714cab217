// Wrapping that may break between Chinese characters. ImGui 1.86 breaks a line only at
// a space or after ASCII punctuation, and Chinese has no spaces: a sentence was cut
// wherever a run overflowed, inside "0.73" or "(batch)", and left ragged lines.
#pragma once

#include <string>
#include <string_view>
#include <vector>

struct ImFont;

namespace attn::gui {

// `text` with a '\n' where each line ends, so no line is wider than `width` pixels in
// `font` at `size`. A line may end at a space or between two Chinese characters, never
// inside a Latin word or number, before a closing mark (，。）」) or after an opening one
// (（「). A space where a line ends is dropped; a word wider than a line stays whole.
std::string wrap_cjk(const ImFont& font, float size, std::string_view text, float width);

// The same wrapping as separate lines (a text's own '\n' starts a line too).
std::vector<std::string> wrap_cjk_lines(const ImFont& font, float size, std::string_view text, float width);

// ImGui::TextWrapped("%s", text) with wrap_cjk's breaks, for any text: the current font,
// up to the current wrap position (the window's right edge by default). ImGui's own
// wrapping breaks after a full stop, inside a number ("sqrt(16) = 4." / "000").
void text_wrapped(const char* text);

}  // namespace attn::gui
