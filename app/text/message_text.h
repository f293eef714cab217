// Renders a Message (core/message.h) through a catalogue: the window calls render() each
// frame with the language in use, so a language switch re-renders every message without
// recomputing anything; the command line gets English through attn::english().
#pragma once

#include <string>

#include "app/text/catalogue.h"
#include "core/message.h"

namespace attn::text {

// `message` in `catalogue`'s language: its template with the named values filled
// (nested messages rendered the same way); a verbatim message as it is. An id no
// catalogue has shows as the marker ⟦id⟧.
std::string render(const Message& message, const Catalogue& catalogue);
// In the language in use.
std::string render(const Message& message);

// Makes attn::english() (and so every Result's error()) use en.json. Done once at start
// by the text library itself; calling it again is harmless.
void install_english_messages();

}  // namespace attn::text
