#include "app/gui/cjk_font.h"

#include <imgui.h>

#include <fcntl.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstring>
#include <map>
#include <memory>
#include <set>

#include "app/gui/app_state.h"

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

// The family name (name ID 1, Windows platform, US English, UTF-16BE read as ASCII) of
// the face whose table directory starts at `font`; "" when the file is too short.
std::string family_at(const unsigned char* data, size_t size, size_t font) {
    if (font + 12 > size) return "";
    const uint32_t tables = be16(data + font + 4);
    for (uint32_t t = 0; t < tables; ++t) {
        const size_t record = font + 12 + 16 * size_t{t};
        if (record + 16 > size) return "";
        if (std::memcmp(data + record, "name", 4) != 0) continue;
        const size_t name = be32(data + record + 8);
        if (name + 6 > size) return "";
        const uint32_t count = be16(data + name + 2);
        const size_t strings = name + be16(data + name + 4);
        for (uint32_t r = 0; r < count; ++r) {
            const unsigned char* e = data + name + 6 + 12 * size_t{r};
            if (e + 12 > data + size) return "";
            if (be16(e) != 3 || be16(e + 2) != 1 || be16(e + 4) != 0x409 || be16(e + 6) != 1) continue;
            const size_t length = be16(e + 8), offset = strings + be16(e + 10);
            if (offset + length > size) return "";
            std::string family;
            for (size_t k = 0; k + 1 < length; k += 2) family += static_cast<char>(data[offset + k + 1]);
            return family;
        }
        return "";
    }
    return "";
}

// Code points the atlas carries besides the catalogue's (see note_glyphs).
std::set<ImWchar>& noted() {
    static std::set<ImWchar> codepoints;
    return codepoints;
}

}  // namespace

int find_face(const void* data, size_t size, std::string_view family) {
    const auto* bytes = static_cast<const unsigned char*>(data);
    if (!bytes || size < 12) return -1;
    if (std::memcmp(bytes, "ttcf", 4) != 0) return family_at(bytes, size, 0) == family ? 0 : -1;
    const uint32_t faces = be32(bytes + 8);
    for (uint32_t face = 0; face < faces && 12 + 4 * size_t{face} + 4 <= size; ++face)
        if (family_at(bytes, size, be32(bytes + 12 + 4 * size_t{face})) == family) return static_cast<int>(face);
    return -1;
}

CjkFont cjk_font_for(std::string_view code) {
    const LanguageFace* face = face_of(code);
    if (face) {
        const auto [data, size] = mapped(kNotoCjk);
        const int index = find_face(data, size, face->family);
        if (index >= 0) return CjkFont{kNotoCjk, data, size, index};
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
    bool added = false;
    for_each_codepoint(utf8, [&](unsigned int c) {
        // ImGui's characters are 16 bits: the Basic Multilingual Plane, where CJK lives.
        if (c >= 0x80 && c <= 0xFFFF) added |= noted().insert(static_cast<ImWchar>(c)).second;
    });
    return added;
}

bool note_shown_glyphs(const AppState& state) {
    bool added = note_glyphs(state.session.sentence);
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

void add_noted_glyphs(ImFontGlyphRangesBuilder& builder) {
    for (ImWchar c : noted()) builder.AddChar(c);
}

}  // namespace attn::gui
