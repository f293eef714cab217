// Which language a tag names: the command line's --lang ("zh-TW") and the system's
// locale ("zh_TW.UTF-8") both end as the code of a language file ("zh-Hant").
#pragma once

#include <string>
#include <string_view>

namespace attn::text {

// The language code for a --lang value: a code the app has ("en", "zh-Hans", "zh-Hant",
// any case) or a regional alias (zh, zh-CN, zh-SG -> zh-Hans; zh-TW, zh-HK, zh-MO ->
// zh-Hant). "" for anything else.
std::string language_for_option(std::string_view tag);

// The language code for a POSIX locale name ("zh_TW.UTF-8", "en_GB", "zh_CN@pinyin"):
// the charset and modifier are dropped, then as language_for_option, else by the
// language part alone ("zh" -> zh-Hans, "en" -> en). "" for C, POSIX and languages the
// app lacks.
std::string language_for_locale(std::string_view locale);

// The language the environment asks for: the first of LC_ALL, LC_MESSAGES and LANG that
// is set (as the C library decides the messages' locale), mapped by language_for_locale;
// "en" when that names no language the app has.
std::string language_from_environment();

// The language of the command line's --help, decided before the options are parsed
// (CLI11 keeps an option's text from the moment it is added): --lang's, wherever it
// stands ("--lang zh-TW" or "--lang=zh-TW"), else, when help is asked for (-h, --help,
// --help-all), the environment's; "" when neither says (English), or --lang names no
// language (the parse then reports it).
std::string language_for_help(int argc, const char* const* argv);

}  // namespace attn::text
