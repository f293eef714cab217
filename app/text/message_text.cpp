#include "app/text/message_text.h"

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

}  // namespace

std::string render(const Message& message, const Catalogue& catalogue) {
    if (message.id.empty()) return written_version(message, catalogue);
    const std::string* pattern = catalogue.find(message.id);
    if (!pattern) return missing_marker(message.id);
    std::vector<Param> params;
    params.reserve(message.args.size());
    for (const MessageArg& arg : message.args)
        params.emplace_back(arg.name, arg.message.empty() ? arg.text : render(arg.message.front(), catalogue));
    return fill_template(*pattern, params);
}

std::string render(const Message& message) { return render(message, active()); }

static std::string render_english(const Message& message) { return render(message, english()); }

void install_english_messages() { set_english_renderer(&render_english); }

}  // namespace attn::text
