// Catalogue: one language's texts, key -> template ("menu.file" -> "File").
//
// Keys are what the code holds (ImHex style: the code never spells an English
// sentence). A key this catalogue lacks is taken from its fallback (English); a key
// no catalogue has shows as the visible marker ⟦key⟧.
#pragma once

#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <set>
#include <string>
#include <string_view>

#include "app/text/text_template.h"

namespace attn::text {

class Catalogue {
public:
    // Parses a flat JSON object of "key": "template" pairs. Returns nullptr and sets
    // `error` when the text is not such an object.
    static std::unique_ptr<Catalogue> from_json(std::string code, std::string_view json, std::string& error,
                                                const Catalogue* fallback = nullptr);

    const std::string& code() const { return code_; }
    // The language's own name for itself ("English"), from its "language.name" key.
    const char* name() const { return text("language.name"); }
    const Catalogue* fallback() const { return fallback_; }

    // The template for `key` here, else in the fallback; nullptr when neither has it.
    const std::string* find(std::string_view key) const;
    // True when this catalogue itself (not its fallback) has `key`.
    bool has_own(std::string_view key) const { return entries_.find(key) != entries_.end(); }

    // The text for `key` (no parameters filled), or the marker ⟦key⟧. The pointer
    // stays valid as long as the catalogue lives.
    const char* text(std::string_view key) const;
    // "text###key": a visible label whose ImGui ID is the key, so the ID stays the same
    // in every language (windows keep their place and imgui.ini entry).
    const char* label(std::string_view key) const;
    // The template for `key` with its named parameters filled.
    std::string format(std::string_view key, Params params) const;

    // Every key of this catalogue itself with its template, in key order.
    void for_each(const std::function<void(const std::string& key, const std::string& pattern)>& visit) const;

private:
    struct Entry {
        std::string pattern;   // the template as written in the file
        std::string labelled;  // pattern + "###" + key
    };
    const Entry* find_entry(std::string_view key) const;
    const std::string& marker(std::string_view key, bool labelled) const;

    std::string code_;
    const Catalogue* fallback_ = nullptr;
    std::map<std::string, Entry, std::less<>> entries_;
    // Markers handed out for missing keys, kept so their pointers stay valid.
    mutable std::mutex markers_mutex_;
    mutable std::set<std::string, std::less<>> markers_;
};

}  // namespace attn::text
