// Message: a text for the user as a catalogue id plus named values, not as a sentence.
//
// The core and the loaders describe what went wrong ("error.config.heads_divide" with
// hidden_dim = 10, num_heads = 3); the window renders that in the language in use, and
// again after a language switch, while the command line prints it in English. The core
// holds no text itself: the English rendering comes from the app through
// set_english_renderer (app/text installs en.json's), so there is one definition of each
// message, the catalogue entry.
#pragma once

#include <map>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

namespace attn {

struct Message;

// One named value of a message: a value already written out (a number, a path, a name),
// or a message of its own (a cause, a phrase), rendered in the same language.
struct MessageArg {
    std::string name;
    std::string text;               // the value, when `message` is empty
    std::vector<Message> message;   // none, or the one nested message

    MessageArg(std::string n, std::string v) : name(std::move(n)), text(std::move(v)) {}
    MessageArg(std::string n, const char* v) : name(std::move(n)), text(v) {}
    template <typename Int, typename = std::enable_if_t<std::is_integral_v<Int>>>
    MessageArg(std::string n, Int v) : name(std::move(n)), text(std::to_string(v)) {}
    MessageArg(std::string n, Message m);
};

struct Message {
    std::string id;                 // the catalogue key; empty for a verbatim text
    std::vector<MessageArg> args;   // named values, in any order
    std::string verbatim;           // the text itself, when id is empty (see plain())
    // Other languages' versions of a verbatim text, by language code ("zh-Hans"); see written().
    std::map<std::string, std::string> translations;

    Message() = default;
    explicit Message(std::string message_id, std::vector<MessageArg> message_args = {})
        : id(std::move(message_id)), args(std::move(message_args)) {}
    // A text that has no catalogue entry (an OS error string, a command-line-only line):
    // shown as it is in every language.
    static Message plain(std::string text) {
        Message m;
        m.verbatim = std::move(text);
        return m;
    }
    // A text written in data rather than the catalogue (a model card's description): its
    // English, required, and any other languages' versions by code. The window shows the
    // version of the language in use (or of its fallback), else the English.
    static Message written(std::string english_text, std::map<std::string, std::string> other_languages = {}) {
        Message m = plain(std::move(english_text));
        m.translations = std::move(other_languages);
        return m;
    }
    // A programmer's error that no input of the user can cause (a broken invariant between
    // two parts of the code): "internal: what", English in every language, never a key.
    // tests/test_no_english.cpp lets these (and app/cli's and app/options' lines) pass its literal scan.
    static Message internal(const std::string& what) { return plain("internal: " + what); }
    bool empty() const { return id.empty() && verbatim.empty(); }
    void clear() { *this = Message(); }
};

inline MessageArg::MessageArg(std::string n, Message m) : name(std::move(n)) { message.push_back(std::move(m)); }

bool operator==(const Message& a, const Message& b);
inline bool operator!=(const Message& a, const Message& b) { return !(a == b); }

// "a or b" for one or two alternatives (nearest_valid_heads gives at most two), so a
// language words the choice: "message.either" {first} {second}.
Message either(const std::vector<int>& values);

// "'cow', 'moon'": each text quoted and the list joined the language's way
// ("message.quoted" {text}, "message.list" {first} {rest}).
Message quoted_list(const std::vector<std::string>& texts);

// How the app turns a message into English text (app/text installs the catalogue's).
using MessageRenderer = std::string (*)(const Message&);
void set_english_renderer(MessageRenderer renderer);
// `message` in English. Without an installed renderer (a program that links the core
// alone): "id {name=value, ...}", so nothing is lost.
std::string english(const Message& message);

}  // namespace attn
