// The languages the app knows and the one in use.
//
// Languages are discovered from the files embedded at build time (assets/lang/*.json):
// adding a language is adding one file there. English ("en") is the fallback of every
// other language. The active language is switched between frames on the GUI thread;
// the text of the trace is produced at display time, so switching redraws without
// recomputing anything.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "app/text/catalogue.h"
#include "app/text/message_text.h"  // render(Message): messages from the core and the loaders

namespace attn::text {

// The English catalogue (complete by rule; the fallback of every other language).
const Catalogue& english();
// The catalogue in use (English until set_language picks another).
const Catalogue& active();
// Codes of every known language, English first, then by code.
std::vector<std::string> language_codes();
// The catalogue for `code`, or nullptr for a language the app does not have.
const Catalogue* find_language(std::string_view code);
// Makes `code` the active language; false (and nothing changes) for an unknown code.
bool set_language(std::string_view code);
// Adds a language from JSON text at run time (tests use this for a pseudo-language;
// the app itself only uses the embedded files). False with `error` on bad JSON.
bool register_language(const std::string& code, std::string_view json, std::string& error);

// Shorthands on the active language, for the views:
// tr("menu.file") -> "File"; label("menu.file") -> "File###menu.file" (the key is
// the ImGui ID); trf("key", {{"heads", 4}}) fills named parameters.
inline const char* tr(std::string_view key) { return active().text(key); }
inline const char* label(std::string_view key) { return active().label(key); }
inline std::string trf(std::string_view key, Params params) { return active().format(key, params); }

}  // namespace attn::text
