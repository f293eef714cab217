// A multi-line text field that wraps its lines to its width (ImGui 1.86's multi-line
// field never wraps: a speaker note ran off a 110-pixel-wide field). The text shown carries
// a soft break ("\r\n", '\r' is not drawn) wherever a line must end; the text kept has none,
// and the line breaks the user typed ('\n' alone) stay.
#pragma once

#include <string>
#include <string_view>

struct ImFont;

namespace attn::gui {

// `text` with a soft break wherever a line of `width` pixels ends (cjk_wrap.h's breaks:
// at a space, after which the break comes, or between Chinese characters).
std::string with_soft_breaks(const ImFont& font, float size, std::string_view text, float width);
// The text without its soft breaks (a '\r' left alone by an edit goes too).
std::string without_soft_breaks(std::string_view shown);
// The multi-line field `id` over `text` (kept without soft breaks), `height` pixels high
// and as wide as the space left; true when the user changed the text.
bool wrapped_text_field(const char* id, std::string& text, float height);

}  // namespace attn::gui
