#include "app/text/catalogue.h"

#include <nlohmann/json.hpp>

namespace attn::text {

std::unique_ptr<Catalogue> Catalogue::from_json(std::string code, std::string_view json, std::string& error,
                                                const Catalogue* fallback) {
    const nlohmann::json parsed = nlohmann::json::parse(json.begin(), json.end(), nullptr, false);
    if (parsed.is_discarded() || !parsed.is_object()) {
        error = "language file " + code + ".json is not a JSON object";
        return nullptr;
    }
    auto catalogue = std::make_unique<Catalogue>();
    catalogue->code_ = std::move(code);
    catalogue->fallback_ = fallback;
    for (auto it = parsed.begin(); it != parsed.end(); ++it) {
        if (!it.value().is_string()) {
            error = "language file " + catalogue->code_ + ".json: the value of \"" + it.key() + "\" is not a string";
            return nullptr;
        }
        std::string pattern = it.value().get<std::string>();
        std::string labelled = pattern + "###" + it.key();
        catalogue->entries_.emplace(it.key(), Entry{std::move(pattern), std::move(labelled)});
    }
    return catalogue;
}

const Catalogue::Entry* Catalogue::find_entry(std::string_view key) const {
    for (const Catalogue* c = this; c; c = c->fallback_) {
        const auto it = c->entries_.find(key);
        if (it != c->entries_.end()) return &it->second;
    }
    return nullptr;
}

const std::string* Catalogue::find(std::string_view key) const {
    const Entry* entry = find_entry(key);
    return entry ? &entry->pattern : nullptr;
}

const std::string& Catalogue::marker(std::string_view key, bool labelled) const {
    std::string text = missing_marker(key);
    if (labelled) text += "###" + std::string(key);
    std::lock_guard<std::mutex> lock(markers_mutex_);
    return *markers_.insert(std::move(text)).first;
}

const char* Catalogue::text(std::string_view key) const {
    const Entry* entry = find_entry(key);
    return entry ? entry->pattern.c_str() : marker(key, false).c_str();
}

const char* Catalogue::label(std::string_view key) const {
    const Entry* entry = find_entry(key);
    return entry ? entry->labelled.c_str() : marker(key, true).c_str();
}

std::string Catalogue::format(std::string_view key, Params params) const {
    const Entry* entry = find_entry(key);
    return entry ? fill_template(entry->pattern, params) : marker(key, false);
}

void Catalogue::for_each(const std::function<void(const std::string&, const std::string&)>& visit) const {
    for (const auto& [key, entry] : entries_) visit(key, entry.pattern);
}

}  // namespace attn::text
