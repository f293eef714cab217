#include "app/gui/kit/fonts_theme.h"

#include <imgui.h>

#include <algorithm>
#include <filesystem>
#include <initializer_list>

#include "app/gui/kit/cjk_font.h"
#include "app/text/languages.h"
#include "core/recipe.h"

namespace attn::gui {
namespace {

// The first of `candidates` that exists, or null.
const char* first_existing(std::initializer_list<const char*> candidates) {
    for (const char* path : candidates) {
        std::error_code ec;
        if (std::filesystem::exists(path, ec)) return path;
    }
    return nullptr;
}

const char* find_font() {
    return first_existing({"/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/TTF/DejaVuSans.ttf",
                           "/usr/share/fonts/dejavu/DejaVuSans.ttf"});
}

// The glyphs the window can draw: Latin-1, Greek, dashes, arrows, maths and shapes
// (formulas and the canvas use them whatever the language), every character of the
// active language's texts (English's for keys it lacks), each language's own name
// (the Language menu shows them all) and the characters noted as shown (a typed
// sentence, token names: cjk_font.h). In English with an ASCII sentence this is exactly
// the fixed set the app always had, so the atlas and every pixel stay as they were;
// the ⟦ ⟧ of a missing-text marker are added for other languages only (in English a
// missing key is a test failure, and would still show, as ?key?). Kept in a static:
// the atlas reads the ranges when it is built.
const ImWchar* glyph_ranges() {
    static ImVector<ImWchar> ranges;
    static const ImWchar kBase[] = {0x0020, 0x00FF, 0x0391, 0x03C9, 0x2013, 0x2026, 0x2190, 0x21FF,
                                    0x2200, 0x22FF, 0x25A0, 0x25FF, 0};
    ImFontGlyphRangesBuilder builder;
    builder.AddRanges(kBase);
    const text::Catalogue& active = text::active();
    if (&active != &text::english()) builder.AddText("\u27E6\u27E7");

    for (const text::Catalogue* c = &active; c; c = c->fallback())
        c->for_each([&](const std::string&, const std::string& pattern) { builder.AddText(pattern.c_str()); });
    for (const std::string& code : text::language_codes())
        if (const text::Catalogue* c = text::find_language(code)) builder.AddText(c->name());
    add_noted_glyphs(builder);
    ranges.clear();
    builder.BuildRanges(&ranges);
    return ranges.Data;
}

ImFont* add_font(const char* path, float size, const ImWchar* ranges) {
    ImGuiIO& io = ImGui::GetIO();
    if (path) {
        ImFontConfig config;
        config.OversampleH = 2;
        if (ImFont* font = io.Fonts->AddFontFromFileTTF(path, size, &config, ranges)) return font;
    }
    ImFontConfig config;
    config.SizePixels = size;
    return io.Fonts->AddFontDefault(&config);
}

// Chinese characters DejaVu lacks, from the CJK font (cjk_font.h): those of the texts
// above (CJK blocks and full-width punctuation, U+2E80 up) plus the recipes' article
// titles, which every language shows. Only these are rasterised, never the whole font.
const ImWchar* cjk_glyph_ranges(const ImWchar* text_ranges) {
    static ImVector<ImWchar> ranges;
    ImFontGlyphRangesBuilder builder;
    for (const ImWchar* r = text_ranges; r[0] != 0; r += 2)
        for (unsigned int c = std::max<unsigned int>(r[0], 0x2E80); c <= r[1]; ++c) builder.AddChar(static_cast<ImWchar>(c));
    for (const Recipe& recipe : recipes())
        for_each_codepoint(recipe.article, [&](unsigned int c) {
            if (c >= 0x2E80 && c <= 0xFFFF) builder.AddChar(static_cast<ImWchar>(c));
        });
    ranges.clear();
    builder.BuildRanges(&ranges);
    return ranges.Data;
}

// The CJK font at `size`, merged into the font added just before (no-op without one).
void merge_cjk(const CjkFont& cjk, float size, const ImWchar* ranges) {
    if (!cjk.data || !ranges || ranges[0] == 0) return;
    ImFontConfig config;
    config.MergeMode = true;
    config.OversampleH = 1;
    config.FontNo = cjk.face;
    config.FontDataOwnedByAtlas = false;  // mapped once for the process (cjk_font.cpp)
    ImGui::GetIO().Fonts->AddFontFromMemoryTTF(const_cast<void*>(cjk.data), static_cast<int>(cjk.size),
                                               size * cjk.size_factor, &config, ranges);
}

}  // namespace

Fonts load_fonts(float scale) {
    ImGuiIO& io = ImGui::GetIO();
    io.Fonts->Clear();
    const char* path = find_font();
    const ImWchar* ranges = glyph_ranges();
    Fonts fonts;
    const CjkFont cjk = cjk_font_for(text::active().code(), path);
    const ImWchar* cjk_ranges = cjk_glyph_ranges(ranges);
    fonts.regular = add_font(path, 16.0f * scale, ranges);  // first font = ImGui's default
    merge_cjk(cjk, 16.0f * scale, cjk_ranges);
    fonts.small = add_font(path, 12.0f * scale, ranges);
    merge_cjk(cjk, 12.0f * scale, cjk_ranges);
    fonts.large = add_font(path, 26.0f * scale, ranges);
    merge_cjk(cjk, 26.0f * scale, cjk_ranges);
    // Python's indentation needs a fixed width; the code is ASCII, so Latin-1 suffices.
    static const ImWchar kLatin[] = {0x0020, 0x00FF, 0};
    const char* mono = first_existing({"/usr/share/fonts/truetype/dejavu/DejaVuSansMono.ttf"});
    fonts.code = add_font(mono ? mono : path, 13.0f * scale, kLatin);

    io.Fonts->Build();
    return fonts;
}

ThemeColors theme_colors(bool light) {
    ThemeColors c;
    if (light) {
        // On near-white every colour must be dark: ImGui's own disabled grey (0.6) and
        // a sky-blue formula were ~2.5:1, unreadable on a projector.
        c.window_bg = {0.97f, 0.97f, 0.96f};
        c.text = {0.0f, 0.0f, 0.0f};
        c.dim = {0.33f, 0.33f, 0.36f};
        c.formula = {0.03f, 0.28f, 0.62f};
        c.good = {0.05f, 0.42f, 0.15f};
        c.warning = {0.66f, 0.24f, 0.0f};
        c.error = {0.72f, 0.08f, 0.08f};
        c.busy = {0.50f, 0.34f, 0.0f};
        c.chip_bg = {0.05f, 0.33f, 0.72f};
    } else {
        c.window_bg = {0.105f, 0.11f, 0.125f};
        c.text = {1.0f, 1.0f, 1.0f};
        c.dim = {0.64f, 0.64f, 0.67f};
        c.formula = {0.45f, 0.75f, 1.0f};
        c.good = {0.4f, 0.85f, 0.5f};
        c.warning = {1.0f, 0.6f, 0.38f};
        c.error = {1.0f, 0.5f, 0.45f};
        c.busy = {0.95f, 0.75f, 0.3f};
        c.chip_bg = {0.05f, 0.33f, 0.72f};
    }
    return c;
}

ImVec4 to_imvec4(Rgb c, float alpha) { return ImVec4(c.r, c.g, c.b, alpha); }

void apply_theme(bool light, float scale) {
    ImGuiStyle& style = ImGui::GetStyle();
    style = ImGuiStyle();
    const ThemeColors tc = theme_colors(light);
    if (light) {
        ImGui::StyleColorsLight(&style);
        style.Colors[ImGuiCol_ChildBg] = ImVec4(1.0f, 1.0f, 1.0f, 1.0f);
        // ImGui's white fields vanish on a near-white window (and on a projector):
        // grey fields with a border keep sliders and checkboxes visible.
        style.Colors[ImGuiCol_FrameBg] = ImVec4(0.86f, 0.87f, 0.90f, 1.0f);
        style.Colors[ImGuiCol_FrameBgHovered] = ImVec4(0.78f, 0.84f, 0.95f, 1.0f);
        style.Colors[ImGuiCol_FrameBgActive] = ImVec4(0.70f, 0.80f, 0.96f, 1.0f);
        style.Colors[ImGuiCol_Border] = ImVec4(0.55f, 0.56f, 0.60f, 0.80f);
        style.FrameBorderSize = 1.0f;
    } else {
        ImGui::StyleColorsDark(&style);
        style.Colors[ImGuiCol_ChildBg] = ImVec4(0.085f, 0.09f, 0.10f, 1.0f);
    }
    // A slider's value is drawn over its grab: a see-through grab keeps the digits
    // readable where they meet (an integer slider's grab is wide: 1/9 of a 1..8 slider).
    style.Colors[ImGuiCol_SliderGrab].w = 0.45f;
    style.Colors[ImGuiCol_SliderGrabActive].w = 0.65f;
    style.Colors[ImGuiCol_WindowBg] = to_imvec4(tc.window_bg);
    style.Colors[ImGuiCol_Text] = to_imvec4(tc.text);
    style.Colors[ImGuiCol_TextDisabled] = to_imvec4(tc.dim);
    // Dialogs dim the window behind them instead of washing it out in light grey.
    style.Colors[ImGuiCol_ModalWindowDimBg] = ImVec4(0.0f, 0.0f, 0.0f, light ? 0.35f : 0.55f);
    style.WindowRounding = 0.0f;
    style.FrameRounding = 3.0f;
    style.GrabRounding = 3.0f;
    style.WindowBorderSize = 0.0f;
    style.FramePadding = ImVec2(6, 4);
    style.ItemSpacing = ImVec2(8, 6);
    style.ScaleAllSizes(scale);
}

CanvasPalette canvas_palette(bool light) {
    CanvasPalette p;
    if (light) {
        p.background = IM_COL32(255, 255, 255, 255);
        p.empty_cell = IM_COL32(232, 232, 236, 255);
        p.text = IM_COL32(25, 25, 30, 255);
        p.dim_text = IM_COL32(100, 100, 110, 255);
        p.frame = IM_COL32(150, 150, 160, 255);
        p.highlight = IM_COL32(255, 200, 0, 255);
        p.highlight_fill = IM_COL32(255, 200, 0, 50);
        p.masked = {0.55f, 0.55f, 0.58f};
        p.background_rgb = {1.0f, 1.0f, 1.0f};
        p.notice = IM_COL32(168, 60, 0, 255);
    } else {
        p.background = IM_COL32(22, 23, 26, 255);
        p.empty_cell = IM_COL32(44, 46, 52, 255);
        p.text = IM_COL32(235, 235, 240, 255);
        p.dim_text = IM_COL32(150, 152, 160, 255);
        p.frame = IM_COL32(90, 92, 100, 255);
        p.highlight = IM_COL32(255, 214, 10, 255);
        p.highlight_fill = IM_COL32(255, 214, 10, 45);
        p.masked = {0.04f, 0.04f, 0.05f};  // near black: unlike "not computed yet" cells
        p.background_rgb = {22.0f / 255.0f, 23.0f / 255.0f, 26.0f / 255.0f};
        p.notice = IM_COL32(255, 170, 60, 255);
    }
    return p;
}

}  // namespace attn::gui
