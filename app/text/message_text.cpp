#include "app/text/message_text.h"

#include <cstdio>
#include <vector>

#include "app/text/languages.h"

namespace attn::text {

namespace {

// A written text's version in `catalogue`'s language or one of its fallbacks, else its English.
const std::string& written_version(const Message& message, const Catalogue& catalogue) {
    for (const Catalogue* c = &catalogue; c && !message.translations.empty(); c = c->fallback()) {
        const auto it = message.translations.find(c->code());
        if (it != message.translations.end()) return it->second;
    }
    return message.verbatim;
}

// A value from outside (a field name in a file, a path) shown on the message's one line:
// a control character in it (a newline, a tab) is written as its escape, \n or \x01.
std::string on_one_line(const std::string& value) {
    std::string out;
    out.reserve(value.size());
    for (const char c : value) {
        const auto byte = static_cast<unsigned char>(c);
        if (byte >= 0x20 && byte != 0x7f) {
            out += c;
        } else if (c == '\n') {
            out += "\\n";
        } else if (c == '\t') {
            out += "\\t";
        } else if (c == '\r') {
            out += "\\r";
        } else {
            char escaped[5];
            std::snprintf(escaped, sizeof escaped, "\\x%02x", byte);
            out += escaped;
        }
    }
    return out;
}

}  // namespace

std::string render(const Message& message, const Catalogue& catalogue) {
    if (message.id.empty()) return written_version(message, catalogue);
    const std::string* pattern = catalogue.find(message.id);
    if (!pattern) return missing_marker(message.id);
    std::vector<Param> params;
    params.reserve(message.args.size());
    for (const MessageArg& arg : message.args)
        params.emplace_back(arg.name, arg.message.empty() ? on_one_line(arg.text) : render(arg.message.front(), catalogue));
    return fill_template(*pattern, params);
}

std::string render(const Message& message) { return render(message, active()); }

static std::string render_english(const Message& message) { return render(message, english()); }

void install_english_messages() { set_english_renderer(&render_english); }

}  // namespace attn::text
