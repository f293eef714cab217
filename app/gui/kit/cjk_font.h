// Chinese characters in the font atlas: which font draws them in the language in use,
// and which of them the atlas carries (only those in use, never a whole 30,000-glyph
// font, so start-up stays fast and the atlas small).
//
// Noto Sans CJK (Debian's fonts-noto-cjk) is one .ttc file with a face per region; each
// Chinese language draws with its own face (SC for zh-Hans, TC for zh-Hant), so 骨
// and 草 take the forms their readers learned at school. Other languages keep Droid Sans
// Fallback (fonts-droid-fallback) for the few Chinese words they show: the recipes'
// article titles, the languages' own names, a typed sentence.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

#include "core/message.h"

struct ImFontGlyphRangesBuilder;

namespace attn::gui {

struct AppState;

// A font file mapped read-only for the rest of the process (ImGui reads glyphs from it
// whenever the atlas is rebuilt; it is never copied).
struct CjkFont {
    std::string path;
    const void* data = nullptr;
    size_t size = 0;
    int face = 0;  // the face inside a .ttc collection
    // ImGui sizes a font by its line height (ascent - descent), which is 1.45 em for Noto
    // Sans CJK and 1.16 em for DejaVu Sans: at one size the ideographs would come out 20 %
    // smaller than the Latin letters beside them. The CJK font's size is the Latin one
    // times this, so both have the same em, as browsers mix fonts.
    float size_factor = 1.0f;
};

// The font that draws Chinese in language `code` beside the Latin font at `latin_path`:
// its Noto Sans CJK face (em-matched) when fonts-noto-cjk is installed, else Droid Sans
// Fallback at the Latin size, as it always was; a font with no data when neither is
// installed.
CjkFont cjk_font_for(std::string_view code, const char* latin_path = nullptr);

// For the status line: when `code` is a Chinese language and fonts-noto-cjk is missing,
// which package to install (English stays usable either way); else empty.
Message missing_cjk_font_note(std::string_view code);

// A face's line height in ems ((ascent - descent) / units per em, from its hhea and head
// tables); 0 when the file does not say.
float line_height_in_em(const void* data, size_t size, int face);

// The index of the face called `family` (name ID 1, e.g. "Noto Sans CJK TC") in a font
// file or .ttc collection of `size` bytes; -1 when no face has that name.
int find_face(const void* data, size_t size, std::string_view family);

// Characters the window shows besides the catalogue's (a typed sentence, token names, a
// model's vocabulary). The atlas carries every one noted so far in this process.
// Returns true when `utf8` held a character not noted before that the current context's
// atlas lacks (the atlas must be rebuilt).
bool note_glyphs(std::string_view utf8);
// The noted characters the built atlas has no glyph for (no font installed, or in the
// browser outside the shipped subset: ImGui draws them as U+FFFD boxes), the first
// `limit` of them in UTF-8, separated by spaces; empty when every one is drawn.
std::string noted_glyphs_not_drawn(size_t limit = 8);
// Notes what `state` shows: the sentence box's text every call, and the token names and
// vocabulary once per trace. True when the atlas must be rebuilt.
bool note_shown_glyphs(const AppState& state);
// Adds the noted characters to `builder`.
void add_noted_glyphs(ImFontGlyphRangesBuilder& builder);

// Calls `visit` with each code point of UTF-8 `text` (a broken sequence as U+FFFD).
template <typename Visit>
void for_each_codepoint(std::string_view text, Visit visit) {
    for (size_t i = 0; i < text.size();) {
        const auto byte = [&](size_t k) { return static_cast<unsigned char>(k < text.size() ? text[k] : 0); };
        const unsigned char lead = byte(i);
        const int extra = lead >= 0xF0 ? 3 : lead >= 0xE0 ? 2 : lead >= 0xC0 ? 1 : 0;
        unsigned int codepoint = extra == 0 ? lead : lead & (0x3Fu >> extra);
        for (int k = 1; k <= extra; ++k) codepoint = (codepoint << 6) | (byte(i + k) & 0x3Fu);
        i += 1 + static_cast<size_t>(extra);
        visit(lead >= 0x80 && lead < 0xC0 ? 0xFFFDu : codepoint);
    }
}

}  // namespace attn::gui
