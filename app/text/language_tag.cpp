#include "app/text/language_tag.h"

#include <cctype>
#include <cstdlib>

#include "app/text/languages.h"

namespace attn::text {
namespace {

// Regional tags that name a script's usage: the mainland and Singapore write Simplified
// characters, Taiwan, Hong Kong and Macau Traditional ones.
struct Alias {
    const char* tag;
    const char* code;
};
constexpr Alias kAliases[] = {{"zh", "zh-Hans"},    {"zh-CN", "zh-Hans"}, {"zh-SG", "zh-Hans"},
                              {"zh-TW", "zh-Hant"}, {"zh-HK", "zh-Hant"}, {"zh-MO", "zh-Hant"}};

bool same_tag(std::string_view a, std::string_view b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
        if (std::tolower(static_cast<unsigned char>(a[i])) != std::tolower(static_cast<unsigned char>(b[i]))) return false;
    return true;
}

}  // namespace

std::string language_for_option(std::string_view tag) {
    for (const std::string& code : language_codes())
        if (same_tag(tag, code)) return code;
    for (const Alias& alias : kAliases)
        if (same_tag(tag, alias.tag)) return alias.code;
    return "";
}

std::string language_for_locale(std::string_view locale) {
    std::string tag(locale.substr(0, locale.find_first_of(".@")));  // "zh_TW.UTF-8" -> "zh_TW"
    for (char& c : tag)
        if (c == '_') c = '-';
    if (std::string code = language_for_option(tag); !code.empty()) return code;
    // "zh-Hant-TW", "zh-Hans-CN": the script says it.
    for (std::string_view script : {"zh-Hant", "zh-Hans"})
        if (tag.size() > script.size() && tag[script.size()] == '-' && same_tag(tag.substr(0, script.size()), script))
            return language_for_option(script);
    const std::string language = tag.substr(0, tag.find('-'));  // "en-GB" -> "en"
    return language == tag ? "" : language_for_option(language);
}

std::string language_for_help(int argc, const char* const* argv) {
    bool help = false;
    for (int i = 1; i < argc; ++i) {
        const std::string_view arg = argv[i];
        if (arg == "--lang" && i + 1 < argc) return language_for_option(argv[i + 1]);
        if (arg.rfind("--lang=", 0) == 0) return language_for_option(arg.substr(7));
        help = help || arg == "-h" || arg == "--help" || arg == "--help-all";
    }
    return help ? language_from_environment() : "";
}

std::string language_from_environment() {
    for (const char* variable : {"LC_ALL", "LC_MESSAGES", "LANG"}) {
        const char* value = std::getenv(variable);
        if (!value || !*value) continue;
        const std::string code = language_for_locale(value);
        return code.empty() ? "en" : code;
    }
    return "en";
}

}  // namespace attn::text
