#include "core/message.h"

#include <atomic>

namespace attn {
namespace {
std::atomic<MessageRenderer> g_english{nullptr};
}

bool operator==(const Message& a, const Message& b) {
    if (a.id != b.id || a.verbatim != b.verbatim || a.translations != b.translations || a.args.size() != b.args.size()) return false;
    for (size_t i = 0; i < a.args.size(); ++i) {
        const MessageArg& x = a.args[i];
        const MessageArg& y = b.args[i];
        if (x.name != y.name || x.text != y.text || x.message != y.message) return false;
    }
    return true;
}

Message either(const std::vector<int>& values) {
    if (values.size() == 1) return Message("message.one", {{"value", values[0]}});
    if (values.size() == 2) return Message("message.either", {{"first", values[0]}, {"second", values[1]}});
    return Message::plain("");
}

Message quoted_list(const std::vector<std::string>& texts) {
    if (texts.empty()) return Message::plain("");
    Message list("message.quoted", {{"text", texts.back()}});
    for (size_t i = texts.size() - 1; i-- > 0;)
        list = Message("message.list", {{"first", Message("message.quoted", {{"text", texts[i]}})}, {"rest", list}});
    return list;
}

void set_english_renderer(MessageRenderer renderer) { g_english.store(renderer, std::memory_order_release); }

std::string english(const Message& message) {
    if (MessageRenderer render = g_english.load(std::memory_order_acquire)) return render(message);
    if (message.id.empty()) return message.verbatim;
    std::string out = message.id + " {";
    for (size_t i = 0; i < message.args.size(); ++i) {
        const MessageArg& arg = message.args[i];
        out += (i ? ", " : "") + arg.name + "=" + (arg.message.empty() ? arg.text : english(arg.message.front()));
    }
    return out + "}";
}

}  // namespace attn
