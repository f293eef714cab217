// A lesson's handout as PDF: one A4 page per slide, its picture at print resolution above
// its title, the teacher's note, the step's formula and its explanation. Written with
// cairo (the PDF and the picture) and pango (text shaping and line breaking, Chinese
// included, through fontconfig's Noto Sans CJK). No GL, no ImGui: the caller hands it
// the pictures it drew.
#pragma once

#include <string>
#include <vector>

#include "core/result.h"

namespace attn::media {

struct HandoutPage {
    std::string title;        // the slide's title
    std::string note;         // the teacher's note ("" leaves its paragraph out)
    std::string formula;      // the step's formula
    std::string explanation;  // the step's explanation
    std::vector<unsigned char> rgba;  // the slide's picture, RGBA8, top row first
    int width = 0, height = 0;        // its size in pixels
};

// The page's text labels, in the lesson's language ("Note", "Formula").
struct HandoutWords {
    std::string note_label, formula_label;
};

// Writes `pages` to `path` (under a temporary name, renamed when complete). `language`
// is the lesson's BCP 47 code ("en", "zh-Hans", "zh-Hant"): it picks the Chinese face
// (Simplified or Traditional glyph forms) and the line-breaking rules.
Status write_handout(const std::string& path, const std::string& title, const std::vector<HandoutPage>& pages,
                     const HandoutWords& words, const std::string& language);

}  // namespace attn::media
