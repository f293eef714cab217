#include "app/text/languages.h"

#include <algorithm>
#include <atomic>
#include <cstdio>
#include <deque>
#include <memory>
#include <mutex>

#include "app/text/embedded_languages.h"
#include "app/text/message_text.h"

namespace attn::text {
namespace {

struct Registry {
    std::mutex mutex;
    std::deque<std::unique_ptr<Catalogue>> catalogues;  // never shrinks: pointers stay valid
    const Catalogue* english = nullptr;
    std::atomic<const Catalogue*> active{nullptr};
};

Registry& registry() {
    static Registry* r = [] {
        auto* reg = new Registry;  // lives for the whole process: views hold its pointers
        std::string error;
        for (std::size_t i = 0; i < kEmbeddedLanguagesCount; ++i) {
            const embed::EmbeddedFile& lang = kEmbeddedLanguages[i];
            if (std::string_view(lang.name) != "en") continue;
            reg->catalogues.push_back(Catalogue::from_json(lang.name, lang.text(), error));
        }
        // en.json is part of the build; if it were broken no text could be shown at all.
        if (reg->catalogues.empty() || !reg->catalogues.front()) {
            std::fprintf(stderr, "attnviz: the embedded English text is broken: %s\n", error.c_str());
            reg->catalogues.clear();
            reg->catalogues.push_back(Catalogue::from_json("en", "{}", error));
        }
        reg->english = reg->catalogues.front().get();
        for (std::size_t i = 0; i < kEmbeddedLanguagesCount; ++i) {
            const embed::EmbeddedFile& lang = kEmbeddedLanguages[i];
            if (std::string_view(lang.name) == "en") continue;
            if (auto c = Catalogue::from_json(lang.name, lang.text(), error, reg->english)) reg->catalogues.push_back(std::move(c));
            else std::fprintf(stderr, "attnviz: %s (language skipped)\n", error.c_str());
        }
        reg->active = reg->english;
        return reg;
    }();
    return *r;
}

// Any program that links the texts renders the core's errors from en.json (core/message.h).
[[maybe_unused]] const bool g_english_messages_installed = (install_english_messages(), true);

}  // namespace

const Catalogue& english() { return *registry().english; }
const Catalogue& active() { return *registry().active.load(std::memory_order_acquire); }

std::vector<std::string> language_codes() {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    std::vector<std::string> codes;
    for (const auto& c : r.catalogues) codes.push_back(c->code());
    std::sort(codes.begin() + 1, codes.end());  // English stays first
    return codes;
}

const Catalogue* find_language(std::string_view code) {
    Registry& r = registry();
    std::lock_guard<std::mutex> lock(r.mutex);
    for (const auto& c : r.catalogues)
        if (c->code() == code) return c.get();
    return nullptr;
}

bool set_language(std::string_view code) {
    const Catalogue* c = find_language(code);
    if (!c) return false;
    registry().active.store(c, std::memory_order_release);
    return true;
}

bool register_language(const std::string& code, std::string_view json, std::string& error) {
    Registry& r = registry();
    auto c = Catalogue::from_json(code, json, error, r.english);
    if (!c) return false;
    std::lock_guard<std::mutex> lock(r.mutex);
    for (auto& existing : r.catalogues)
        if (existing->code() == code) {
            error = "language " + code + " already exists";
            return false;
        }
    r.catalogues.push_back(std::move(c));
    return true;
}

}  // namespace attn::text
