// Chinese in the window: a switch in View > Language keeps the lesson and recomputes
// nothing; the atlas carries every character of the language in use (Noto Sans CJK's own
// face per script) and grows when a sentence brings new ones.
#include <doctest/doctest.h>

#include <imgui.h>

#include <set>
#include <string>
#include <vector>

#include "app/gui/kit/cjk_font.h"
#include "app/gui/kit/cjk_wrap.h"
#include "app/io/trace_writer.h"
#include "app/text/step_text.h"
#include "tests/gui/headless_imgui.h"
#include "tests/lang/pseudo_language.h"

using namespace attn;
using namespace attn::gui;
using namespace attn::gui::testing;

namespace {

// True when the Chinese font of fonts-noto-cjk is installed (the README's commands do).
bool have_noto_cjk() { return cjk_font_for("zh-Hant").path.find("NotoSansCJK") != std::string::npos; }

// Rebuilds the current context's atlas in the language in use, as the window does after
// a switch, and uploads nothing (no GL): the pixels are only built.
Fonts rebuilt_fonts() {
    Fonts fonts = load_fonts(1.0f);
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    ImGui::GetIO().Fonts->GetTexDataAsAlpha8(&pixels, &w, &h);
    return fonts;
}

// The code points of every text `catalogue` shows (its own and its English fallback's),
// line breaks and tabs aside.
std::set<unsigned int> catalogue_codepoints(const text::Catalogue& catalogue) {
    std::set<unsigned int> codepoints;
    for (const text::Catalogue* c = &catalogue; c; c = c->fallback())
        c->for_each([&](const std::string&, const std::string& pattern) {
            for_each_codepoint(pattern, [&](unsigned int cp) {
                if (cp >= 0x20) codepoints.insert(cp);
            });
        });
    return codepoints;
}

// The alpha pixels of `font`'s glyph for `codepoint` in the current atlas ({} when absent).
std::vector<unsigned char> glyph_pixels(const ImFont* font, ImWchar codepoint) {
    const ImFontGlyph* glyph = font->FindGlyphNoFallback(codepoint);
    if (!glyph) return {};
    unsigned char* pixels = nullptr;
    int w = 0, h = 0;
    ImGui::GetIO().Fonts->GetTexDataAsAlpha8(&pixels, &w, &h);
    const int x0 = static_cast<int>(glyph->U0 * w), x1 = static_cast<int>(glyph->U1 * w);
    const int y0 = static_cast<int>(glyph->V0 * h), y1 = static_cast<int>(glyph->V1 * h);
    std::vector<unsigned char> out;
    for (int y = y0; y < y1; ++y)
        for (int x = x0; x < x1; ++x) out.push_back(pixels[y * w + x]);
    return out;
}

}  // namespace

TEST_CASE("switching language keeps the step, the configuration and the pinned cell, and recomputes nothing") {
    HeadlessImGui imgui(1280, 800);
    AttentionConfig c;
    c.seq_len = 5;
    c.hidden_dim = 8;
    c.num_heads = 2;
    c.mask = MaskKind::Causal;
    AppState state = state_for(c);
    REQUIRE(state.results.trace);
    state.settings.hint_seen = true;
    const int scores = state.results.trace->index_of(StepId::AttnScores);
    REQUIRE(scores >= 0);
    state.ui.playback.set_position(scores, 1.0f);
    state.ui.canvas.pinned = CellRef{scores, 1, 3, 2};
    imgui.frame(state);
    imgui.frame(state);
    const std::shared_ptr<const Trace> trace = state.results.trace;
    const uint64_t generation = state.results.posted_generation;
    const nlohmann::json config = io::config_to_json(state.session.config);
    const CellRef pinned = state.ui.canvas.pinned;

    struct BackToEnglish {
        ~BackToEnglish() { text::set_language("en"); }
    } restore;
    for (const char* code : {"zh-Hant", "zh-Hans", "en"}) {
        CAPTURE(std::string(code));
        // What View > Language hands back when the language is clicked (view_menu.cpp).
        Actions picked;
        UiSettings settings = state.settings;
        settings.language = code;
        picked.settings_edit = settings;
        picked.language_changed = true;
        apply_edits(state, picked);
        REQUIRE(text::active().code() == code);
        imgui.fonts = rebuilt_fonts();  // the window rebuilds its fonts, nothing else
        Actions drawn = imgui.frame(state);
        drawn |= imgui.frame(state);
        CHECK_FALSE(drawn.config_changed);
        CHECK(state.settings.language == code);
        CHECK(state.ui.playback.step() == scores);
        CHECK(state.ui.canvas.pinned == pinned);
        CHECK(io::config_to_json(state.session.config) == config);
        CHECK(state.results.trace == trace);  // the same trace object ...
        CHECK(state.results.posted_generation == generation);  // ... and no request posted
        // The explanation shows the step's title in the new language.
        const std::string title = text::describe_step(trace->steps[static_cast<size_t>(scores)], *trace).title;
        CHECK(shows(drawn_text(text::label("window.explanation")), title));
    }
}

TEST_CASE("View > Language names each language in its own script") {
    const text::Catalogue* hans = text::find_language("zh-Hans");
    const text::Catalogue* hant = text::find_language("zh-Hant");
    REQUIRE(hans);
    REQUIRE(hant);
    CHECK(std::string(text::english().name()) == "English");
    CHECK(std::string(hans->name()) == "简体中文");
    CHECK(std::string(hant->name()) == "繁體中文");
    const std::vector<std::string> codes = text::language_codes();
    REQUIRE(codes.size() >= 3);
    CHECK(codes[0] == "en");
}

TEST_CASE("the font atlas holds every character of the language in use, within 2048x2048 at scale 1") {
    if (!have_noto_cjk()) {
        MESSAGE("fonts-noto-cjk is not installed: the Chinese atlas cannot be checked");
        return;
    }
    ImGuiContext* ctx = ImGui::CreateContext();
    for (const char* code : {"zh-Hans", "zh-Hant", "en"}) {
        CAPTURE(std::string(code));
        test::LanguageScope scope(code);
        const Fonts fonts = rebuilt_fonts();
        const ImFontAtlas& atlas = *ImGui::GetIO().Fonts;
        CHECK(atlas.TexWidth <= 2048);
        CHECK(atlas.TexHeight <= 2048);
        std::vector<unsigned int> missing;
        for (unsigned int cp : catalogue_codepoints(text::active()))
            for (const ImFont* font : {fonts.regular, fonts.small, fonts.large})
                if (cp > 0xFFFF || !font->FindGlyphNoFallback(static_cast<ImWchar>(cp))) missing.push_back(cp);
        std::string shown;
        for (unsigned int cp : missing) {
            char utf8[5] = {};
            ImTextCharToUtf8(utf8, cp);
            shown += std::string(utf8) + " ";
        }
        CHECK_MESSAGE(missing.empty(), "no glyph for: " << shown);
        // Each language's own name, for the Language menu, in any language.
        for (const std::string& other : text::language_codes())
            for_each_codepoint(text::find_language(other)->name(), [&](unsigned int cp) {
                CHECK(fonts.regular->FindGlyphNoFallback(static_cast<ImWchar>(cp)) != nullptr);
            });
    }
    ImGui::DestroyContext(ctx);
}

TEST_CASE("zh-Hans draws with Noto Sans CJK SC and zh-Hant with TC: the same character, each script's form") {
    if (!have_noto_cjk()) {
        MESSAGE("fonts-noto-cjk is not installed: the faces cannot be checked");
        return;
    }
    const CjkFont sc = cjk_font_for("zh-Hans"), tc = cjk_font_for("zh-Hant");
    CHECK(sc.face == find_face(sc.data, sc.size, "Noto Sans CJK SC"));
    CHECK(tc.face == find_face(tc.data, tc.size, "Noto Sans CJK TC"));
    CHECK(sc.face != tc.face);
    CHECK(find_face(sc.data, sc.size, "No Such Family") == -1);
    CHECK(missing_cjk_font_note("zh-Hant").empty());
    CHECK(missing_cjk_font_note("en").empty());

    // 骨 (bone) and 草 (grass) are drawn differently on the mainland and in Taiwan.
    note_glyphs("骨草");
    ImGuiContext* ctx = ImGui::CreateContext();
    std::vector<unsigned char> forms[2][2];
    const char* codes[2] = {"zh-Hans", "zh-Hant"};
    for (int l = 0; l < 2; ++l) {
        test::LanguageScope scope(codes[l]);
        const Fonts fonts = rebuilt_fonts();
        forms[l][0] = glyph_pixels(fonts.large, 0x9AA8);
        forms[l][1] = glyph_pixels(fonts.large, 0x8349);
    }
    for (int g = 0; g < 2; ++g) {
        CAPTURE(g);
        REQUIRE_FALSE(forms[0][g].empty());
        REQUIRE_FALSE(forms[1][g].empty());
        CHECK(forms[0][g] != forms[1][g]);
    }
    ImGui::DestroyContext(ctx);
}

TEST_CASE("a typed sentence with characters the atlas lacks grows the atlas by those characters only") {
    if (!have_noto_cjk()) {
        MESSAGE("fonts-noto-cjk is not installed");
        return;
    }
    ImGuiContext* ctx = ImGui::CreateContext();
    test::LanguageScope scope("zh-Hans");
    constexpr ImWchar kRare = 0x9F98;  // 龘: in no catalogue
    const Fonts before = rebuilt_fonts();
    CHECK(before.regular->FindGlyphNoFallback(kRare) == nullptr);
    const int glyphs_before = before.regular->Glyphs.Size;

    AppState state;
    state.session.sentence = "注意力";     // every character in the catalogue: already drawn
    CHECK_FALSE(note_shown_glyphs(state));  // so typing it costs no rebuild
    state.session.sentence = "我的 GPU 很快 龘";
    CHECK(note_shown_glyphs(state));        // new characters: the window rebuilds the atlas
    CHECK_FALSE(note_shown_glyphs(state));  // nothing new: no rebuild every frame
    const Fonts after = rebuilt_fonts();
    CHECK(after.regular->FindGlyphNoFallback(kRare) != nullptr);
    CHECK(after.regular->Glyphs.Size <= glyphs_before + 4);  // 龘 and at most 我的很快 (no whole font)
    ImGui::DestroyContext(ctx);
}

TEST_CASE("Chinese text wraps between characters, never inside a Latin word or number, nor before a closing mark") {
    ImGuiContext* ctx = ImGui::CreateContext();
    test::LanguageScope scope("zh-Hant");
    const Fonts fonts = rebuilt_fonts();
    const ImFont& font = *fonts.regular;
    const float size = font.FontSize;
    const std::string text = "注意力要處理的序列：5 個 token，每個都是由 hidden_dim = 8 個數字組成的向量（vector）。測得 0.73（門檻 >= 0.44）。";
    for (float width : {60.0f, 110.0f, 170.0f, 260.0f}) {
        CAPTURE(width);
        const std::string wrapped = wrap_cjk(font, size, text, width);
        std::string joined;
        size_t start = 0;
        while (start <= wrapped.size()) {
            const size_t end = std::min(wrapped.find('\n', start), wrapped.size());
            const std::string line = wrapped.substr(start, end - start);
            CAPTURE(line);
            // Every line fits: a line holding a Chinese character could have been broken.
            const float w = font.CalcTextSizeA(size, FLT_MAX, 0.0f, line.c_str()).x;
            bool chinese = false;
            for_each_codepoint(line, [&](unsigned int c) { chinese |= c >= 0x4E00 && c <= 0x9FFF; });
            CHECK((w <= width || (!chinese && line.find(' ') == std::string::npos)));
            for (const char* closing : {"，", "。", "）", "："})
                CHECK(line.rfind(closing, 0) != 0);  // no line starts with a closing mark
            CHECK(line.find("（") != line.size() - std::string("（").size());  // nor ends with an opening one
            joined += line;
            start = end + 1;
        }
        // Nothing lost but the spaces where lines end; words and numbers stay whole.
        CHECK(without_spaces(joined) == without_spaces(text));
        for (const char* whole : {"token", "hidden_dim", "0.73", "vector"}) CHECK(joined.find(whole) != std::string::npos);
        CHECK(wrapped.find('\n') != std::string::npos);  // it did wrap
    }
    ImGui::DestroyContext(ctx);
}
