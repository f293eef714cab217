#include "app/gui/kit/cjk_wrap.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <algorithm>
#include <vector>

#include "app/gui/kit/cjk_font.h"

namespace attn::gui {
namespace {

bool is_cjk(unsigned int c) { return c >= 0x2E80 && c <= 0xFFEF; }
// Marks a line may not start with (they close what came before) ...
bool closes(unsigned int c) {
    return c == 0x3001 || c == 0x3002 || c == 0xFF0C || c == 0xFF0E || c == 0xFF1A || c == 0xFF1B || c == 0xFF01 ||
           c == 0xFF1F || c == 0xFF09 || c == 0x300D || c == 0x300F || c == 0x3011 || c == 0x201D || c == 0x2019;
}
// ... and those it may not end with.
bool opens(unsigned int c) { return c == 0xFF08 || c == 0x300C || c == 0x300E || c == 0x3010 || c == 0x201C || c == 0x2018; }

// A piece no line break may enter: a word, one Chinese character with its marks, a space.
struct Piece {
    size_t begin, end;
    bool space;
};

std::vector<Piece> pieces_of(std::string_view text) {
    std::vector<Piece> pieces;
    bool in_word = false;    // the last character was a letter, digit or sign of a word
    bool glue_next = false;  // the last character opened a bracket: the next one joins it
    size_t at = 0;
    for_each_codepoint(text, [&](unsigned int c) {
        // The character's bytes, stepped as for_each_codepoint steps them.
        const auto lead = static_cast<unsigned char>(text[at]);
        const size_t begin = at;
        at = std::min(text.size(), at + (lead >= 0xF0 ? 4 : lead >= 0xE0 ? 3 : lead >= 0xC0 ? 2 : 1));
        const bool space = c == ' ' || c == '\n';
        const bool joins = !pieces.empty() && text[pieces.back().begin] != '\n' && !space &&
                           (glue_next || closes(c) || (in_word && !is_cjk(c) && !opens(c)));
        if (joins) {
            pieces.back().end = at;
            pieces.back().space = false;
        } else {
            pieces.push_back({begin, at, space});
        }
        in_word = !space && !is_cjk(c) && !opens(c) && !closes(c);
        glue_next = opens(c);
    });
    return pieces;
}

}  // namespace

std::string wrap_cjk(const ImFont& font, float size, std::string_view text, float width) {
    std::string out;
    float line = 0.0f;
    for (const Piece& p : pieces_of(text)) {
        const std::string_view piece = text.substr(p.begin, p.end - p.begin);
        if (piece == "\n") {
            out += '\n';
            line = 0.0f;
            continue;
        }
        const float w = font.CalcTextSizeA(size, FLT_MAX, 0.0f, piece.data(), piece.data() + piece.size()).x;
        if (line > 0.0f && line + w > width && !p.space) {
            while (!out.empty() && out.back() == ' ') out.pop_back();  // the space where the line ends
            out += '\n';
            line = 0.0f;
        }
        if (line == 0.0f && p.space) continue;  // no line starts with a space
        out += piece;
        line += w;
    }
    return out;
}

std::vector<std::string> wrap_cjk_lines(const ImFont& font, float size, std::string_view text, float width) {
    const std::string wrapped = wrap_cjk(font, size, text, width);
    std::vector<std::string> lines;
    size_t at = 0;
    while (at <= wrapped.size()) {
        const size_t end = std::min(wrapped.find('\n', at), wrapped.size());
        lines.push_back(wrapped.substr(at, end - at));
        at = end + 1;
    }
    while (!lines.empty() && lines.back().empty()) lines.pop_back();
    return lines;
}

void text_wrapped(const char* text) {
    const ImGuiWindow* window = ImGui::GetCurrentWindow();
    const bool own_wrap_pos = window->DC.TextWrapPos < 0.0f;  // as TextWrapped: else the window's right edge
    if (own_wrap_pos) ImGui::PushTextWrapPos(0.0f);
    // Every text, not only Chinese: ImGui's own wrapping breaks after a full stop, inside
    // "4.000" or "0.89". A pixel to spare, so ImGui never splits a line measured to fit.
    const float width = ImGui::CalcWrapWidthForPos(window->DC.CursorPos, window->DC.TextWrapPos) - 1.0f;
    const std::string lines = wrap_cjk(*ImGui::GetFont(), ImGui::GetFontSize(), text, width);
    ImGui::TextUnformatted(lines.c_str(), lines.c_str() + lines.size());
    if (own_wrap_pos) ImGui::PopTextWrapPos();
}

}  // namespace attn::gui
