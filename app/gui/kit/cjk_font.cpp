#include "app/gui/kit/cjk_font.h"

#include <imgui.h>
#include <imgui_internal.h>  // ImTextCharToUtf8

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <memory>
#include <optional>
#include <set>

#include "app/gui/state/app_state.h"
#include "app/io/model_loader.h"

namespace attn::gui {
namespace {

constexpr const char* kNotoCjk = "/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc";       // fonts-noto-cjk
constexpr const char* kDroid = "/usr/share/fonts/truetype/droid/DroidSansFallbackFull.ttf";     // fonts-droid-fallback
constexpr const char* kNotoPackage = "fonts-noto-cjk";

// The Noto Sans CJK face each Chinese language draws with.
struct LanguageFace {
    const char* language;
    const char* family;
};
constexpr LanguageFace kFaces[] = {{"zh-Hans", "Noto Sans CJK SC"}, {"zh-Hant", "Noto Sans CJK TC"}};

const LanguageFace* face_of(std::string_view language) {
    for (const LanguageFace& f : kFaces)
        if (language == f.language) return &f;
    return nullptr;
}

// `path` mapped read-only, once per process; {nullptr, 0} when it cannot be read.
std::pair<const void*, size_t> mapped(const char* path) {
    static std::map<std::string, std::pair<const void*, size_t>> files;
    if (const auto it = files.find(path); it != files.end()) return it->second;
    std::pair<const void*, size_t> file{nullptr, 0};
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    struct stat info {};
    if (fd >= 0 && ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode) && info.st_size > 0) {
        void* data = ::mmap(nullptr, static_cast<size_t>(info.st_size), PROT_READ, MAP_PRIVATE, fd, 0);
        if (data != MAP_FAILED) file = {data, static_cast<size_t>(info.st_size)};
    }
    if (fd >= 0) ::close(fd);
    if (file.first) files.emplace(path, file);
    return file;
}

uint32_t be16(const unsigned char* p) { return static_cast<uint32_t>(p[0] << 8 | p[1]); }
uint32_t be32(const unsigned char* p) { return be16(p) << 16 | be16(p + 2); }

// Where table `tag` of the face whose table directory starts at `font` begins, and its
// length; {0, 0} when it has none or the file is too short.
std::pair<size_t, size_t> find_table(const unsigned char* data, size_t size, size_t font, const char* tag) {
    if (font + 12 > size) return {0, 0};
    const uint32_t tables = be16(data + font + 4);
    for (uint32_t t = 0; t < tables; ++t) {
        const size_t record = font + 12 + 16 * size_t{t};
        if (record + 16 > size) return {0, 0};
        if (std::memcmp(data + record, tag, 4) != 0) continue;
        const size_t offset = be32(data + record + 8), length = be32(data + record + 12);
        return offset + length <= size ? std::make_pair(offset, length) : std::make_pair(size_t{0}, size_t{0});
    }
    return {0, 0};
}

// Where face `face`'s table directory starts (a .ttc lists one per face); nullopt when
// the file has no such face.
std::optional<size_t> face_offset(const unsigned char* data, size_t size, int face) {
    if (!data || size < 12 || face < 0) return std::nullopt;
    if (std::memcmp(data, "ttcf", 4) != 0) return face == 0 ? std::optional<size_t>(0) : std::nullopt;
    const size_t entry = 12 + 4 * static_cast<size_t>(face);
    if (face >= static_cast<int>(be32(data + 8)) || entry + 4 > size) return std::nullopt;
    return be32(data + entry);
}

// The family name (name ID 1, Windows platform, US English, UTF-16BE read as ASCII) of
// the face whose table directory starts at `font`; "" when the file is too short.
std::string family_at(const unsigned char* data, size_t size, size_t font) {
    const auto [name, name_length] = find_table(data, size, font, "name");
    if (name_length < 6) return "";
    const uint32_t count = be16(data + name + 2);
    const size_t strings = name + be16(data + name + 4);
    for (uint32_t r = 0; r < count; ++r) {
        const size_t record = name + 6 + 12 * size_t{r};
        if (record + 12 > size) return "";
        const unsigned char* e = data + record;
        if (be16(e) != 3 || be16(e + 2) != 1 || be16(e + 4) != 0x409 || be16(e + 6) != 1) continue;
        const size_t length = be16(e + 8), offset = strings + be16(e + 10);
        if (offset + length > size) return "";
        std::string family;
        for (size_t k = 0; k + 1 < length; k += 2) family += static_cast<char>(data[offset + k + 1]);
        return family;
    }
    return "";
}

// Code points the atlas carries besides the catalogue's (see note_glyphs).
std::set<ImWchar>& noted() {
    static std::set<ImWchar> codepoints;
    return codepoints;
}

}  // namespace

float line_height_in_em(const void* data, size_t size, int face) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    const std::optional<size_t> font = face_offset(bytes, size, face);
    if (!font) return 0.0f;
    const auto [hhea, hhea_length] = find_table(bytes, size, *font, "hhea");
    const auto [head, head_length] = find_table(bytes, size, *font, "head");
    if (hhea_length < 8 || head_length < 20) return 0.0f;
    const auto ascent = static_cast<int16_t>(be16(bytes + hhea + 4));
    const auto descent = static_cast<int16_t>(be16(bytes + hhea + 6));
    const uint32_t units_per_em = be16(bytes + head + 18);
    return units_per_em > 0 ? static_cast<float>(ascent - descent) / static_cast<float>(units_per_em) : 0.0f;
}

int find_face(const void* data, size_t size, std::string_view family) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    for (int face = 0;; ++face) {
        const std::optional<size_t> font = face_offset(bytes, size, face);
        if (!font) return -1;
        if (family_at(bytes, size, *font) == family) return face;
    }
}

CjkFont cjk_font_for(std::string_view code, const char* latin_path) {
    const LanguageFace* face = face_of(code);
    if (face) {
        const auto [data, size] = mapped(kNotoCjk);
        const int index = find_face(data, size, face->family);
        if (index >= 0) {
            CjkFont noto{kNotoCjk, data, size, index};
            const auto [latin, latin_size] = latin_path ? mapped(latin_path) : std::pair<const void*, size_t>{nullptr, 0};
            const float latin_em = line_height_in_em(latin, latin_size, 0), cjk_em = line_height_in_em(data, size, index);
            if (latin_em > 0.0f && cjk_em > 0.0f) noto.size_factor = cjk_em / latin_em;
            return noto;
        }
    }
    // Other languages (and Chinese without Noto) draw their few Chinese words with Droid.
    if (const auto [data, size] = mapped(kDroid); data) return CjkFont{kDroid, data, size, 0};
    if (!face) {
        const auto [data, size] = mapped(kNotoCjk);
        const int index = find_face(data, size, kFaces[0].family);
        if (index >= 0) return CjkFont{kNotoCjk, data, size, index};
    }
    return CjkFont{};
}

Message missing_cjk_font_note(std::string_view code) {
    const LanguageFace* face = face_of(code);
    if (!face) return Message();
    const auto [data, size] = mapped(kNotoCjk);
    if (find_face(data, size, face->family) >= 0) return Message();
    return Message("status.cjk_font_missing", {{"package", kNotoPackage}});
}

bool note_glyphs(std::string_view utf8) {
    // A character the current atlas already draws (most typed Chinese is in the
    // catalogue) needs no rebuild; without a context every new one counts.
    const ImFont* drawn = ImGui::GetCurrentContext() && !ImGui::GetIO().Fonts->Fonts.empty() ? ImGui::GetIO().Fonts->Fonts[0] : nullptr;
    bool added = false;
    for_each_codepoint(utf8, [&](unsigned int c) {
        // ImGui's characters are 16 bits: the Basic Multilingual Plane, where CJK lives.
        if (c < 0x80 || c > 0xFFFF || !noted().insert(static_cast<ImWchar>(c)).second) return;
        added |= !drawn || !drawn->FindGlyphNoFallback(static_cast<ImWchar>(c));
    });
    return added;
}

std::string noted_glyphs_not_drawn(size_t limit) {
    const ImFont* drawn = ImGui::GetCurrentContext() && !ImGui::GetIO().Fonts->Fonts.empty() ? ImGui::GetIO().Fonts->Fonts[0] : nullptr;
    std::string missing;
    size_t count = 0;
    for (ImWchar c : noted()) {
        if (!drawn || drawn->FindGlyphNoFallback(c) || count == limit) continue;
        ++count;
        char utf8[5];
        missing += (missing.empty() ? "" : " ") + std::string(ImTextCharToUtf8(utf8, c));
    }
    return missing;
}

bool note_shown_glyphs(const AppState& state) {
    bool added = note_glyphs(state.session.sentence);
    added |= note_glyphs(state.tour.title);  // the tour's bubble (state/tour.h)
    added |= note_glyphs(state.tour.text);
    static std::weak_ptr<const Trace> noted_trace;  // token lists are scanned once per trace
    const std::shared_ptr<const Trace>& trace = state.results.trace;
    if (trace && trace != noted_trace.lock()) {
        noted_trace = trace;
        for (const auto* tokens : {&state.results.query_tokens, &state.results.key_tokens, &trace->model.tokens,
                                   &trace->model.vocabulary, &trace->model.predicted_tokens})
            for (const std::string& token : *tokens) added |= note_glyphs(token);
    }
    return added;
}

namespace {

// Every language's version of a text written in data (Message::written).
void add_written(ImFontGlyphRangesBuilder& builder, const Message& text) {
    builder.AddText(text.verbatim.c_str());
    for (const auto& [code, translated] : text.translations) builder.AddText(translated.c_str());
}

}  // namespace

void add_noted_glyphs(ImFontGlyphRangesBuilder& builder) {
    // U+FFFD, so ImGui draws it (not '?') for a character the atlas lacks: a missing glyph
    // looks missing, and a test reading the drawn text can tell it from a question mark.
    builder.AddChar(static_cast<ImWchar>(0xFFFD));
    // The model cards' words (the Model menu's tooltips, the card under the layer slider),
    // which live in the cards, not in the catalogue.
    for (const ModelSpec& spec : io::list_models()) {
        add_written(builder, spec.description);
        add_written(builder, spec.reading_the_output);
        for (const HeadClaim& claim : spec.head_claims) add_written(builder, claim.claim);
    }
    for (ImWchar c : noted()) builder.AddChar(c);
}

}  // namespace attn::gui
