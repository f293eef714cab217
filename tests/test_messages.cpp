// Messages (core/message.h): every id the sources use is an English text taking exactly
// the parameters the code gives it, the English rendering is the command line's line, and
// the same message renders in the language in use.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <set>
#include <sstream>
#include <string>
#include <vector>

#include "app/io/npy.h"
#include "app/text/languages.h"
#include "core/config.h"
#include "tests/lang/pseudo_language.h"

using namespace attn;

namespace {

std::string read_source(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::stringstream s;
    s << in.rdbuf();
    return s.str();
}

// Index of the bracket closing the one at `open` ('(' or '{'), skipping string and
// character literals; npos when it never closes.
size_t closing(const std::string& s, size_t open) {
    int depth = 0;
    for (size_t i = open; i < s.size(); ++i) {
        const char c = s[i];
        if (c == '"' || c == '\'') {
            for (++i; i < s.size() && s[i] != c; ++i)
                if (s[i] == '\\') ++i;
            continue;
        }
        if (c == '(' || c == '{' || c == '[') ++depth;
        if (c == ')' || c == '}' || c == ']') {
            if (--depth == 0) return i;
        }
    }
    return std::string::npos;
}

// `text` split at its top-level commas (brackets and literals kept whole).
std::vector<std::string> top_level_parts(const std::string& text) {
    std::vector<std::string> parts;
    size_t start = 0;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (c == '(' || c == '{' || c == '[' || c == '"' || c == '\'') {
            if (c == '"' || c == '\'') {
                for (++i; i < text.size() && text[i] != c; ++i)
                    if (text[i] == '\\') ++i;
            } else {
                i = closing(text, i);
                if (i == std::string::npos) break;
            }
            continue;
        }
        if (c == ',') {
            parts.push_back(text.substr(start, i - start));
            start = i + 1;
        }
    }
    parts.push_back(text.substr(start));
    return parts;
}

std::string trimmed(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t\n");
    const size_t b = s.find_last_not_of(" \t\n");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

struct MessageCall {
    std::vector<std::string> ids;   // the key literals of the first argument (two for a ternary)
    std::set<std::string> names;    // the parameter names given
};

// Every Message("id", {{"name", value}, ...}) and `Message name("id", {...})` in `source`
// whose id is written as a literal; a nested Message in a value is a call of its own.
std::vector<MessageCall> message_calls(const std::string& source) {
    static const std::regex start("\\bMessage(\\s+[a-z_]+)?\\s*\\(");
    static const std::regex key("\"([a-z_]+\\.[a-z0-9_.]+)\"");
    static const std::regex name("^\\{\\s*\"([a-z_][a-z0-9_]*)\"");
    std::vector<MessageCall> calls;
    for (auto it = std::sregex_iterator(source.begin(), source.end(), start); it != std::sregex_iterator(); ++it) {
        const size_t open = static_cast<size_t>(it->position(0) + it->length(0) - 1);
        const size_t close = closing(source, open);
        if (close == std::string::npos) continue;
        const std::vector<std::string> args = top_level_parts(source.substr(open + 1, close - open - 1));
        MessageCall call;
        const std::string& first = args[0];
        for (auto k = std::sregex_iterator(first.begin(), first.end(), key); k != std::sregex_iterator(); ++k)
            call.ids.push_back((*k)[1].str());
        if (call.ids.empty()) continue;  // a declaration, or an id held in a variable
        if (args.size() > 1) {
            const std::string list = trimmed(args[1]);
            if (list.size() >= 2 && list.front() == '{' && list.back() == '}') {
                for (const std::string& element : top_level_parts(list.substr(1, list.size() - 2))) {
                    std::smatch m;
                    const std::string e = trimmed(element);
                    if (std::regex_search(e, m, name)) call.names.insert(m[1].str());
                }
            }
        }
        calls.push_back(std::move(call));
    }
    return calls;
}

}  // namespace

TEST_CASE("every message id in the sources is an English text with exactly the parameters given") {
    int calls = 0;
    for (const char* folder : {"/core", "/app"}) {
        for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(ATTNVIZ_SOURCE_DIR) + folder)) {
            const std::string ext = entry.path().extension().string();
            if (ext != ".cpp" && ext != ".h") continue;
            for (const MessageCall& call : message_calls(read_source(entry.path()))) {
                for (const std::string& id : call.ids) {
                    CAPTURE(entry.path().string());
                    CAPTURE(id);
                    const std::string* pattern = text::english().find(id);
                    REQUIRE_MESSAGE(pattern, "no English text for this message id");
                    const std::vector<std::string> used = text::template_parameters(*pattern);
                    CHECK(std::set<std::string>(used.begin(), used.end()) == call.names);
                    ++calls;
                }
            }
        }
    }
    CHECK(calls > 150);  // the scan found the validation and loader messages
}

TEST_CASE("every message key written in the core exists in English") {
    // Ids passed through a variable (the role of an input, why a bias is unwanted) are
    // written as literals elsewhere in the core; the app's literals are checked by the
    // key test in test_text.cpp.
    const std::regex literal("\"((?:error|message)\\.[a-z0-9_.]*[a-z0-9_])\"");
    int seen = 0;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(ATTNVIZ_SOURCE_DIR) + "/core")) {
        const std::string ext = entry.path().extension().string();
        if (ext != ".cpp" && ext != ".h") continue;
        const std::string source = read_source(entry.path());
        for (auto it = std::sregex_iterator(source.begin(), source.end(), literal); it != std::sregex_iterator(); ++it) {
            CAPTURE(entry.path().string());
            CAPTURE((*it)[1].str());
            CHECK(text::english().has_own((*it)[1].str()));
            ++seen;
        }
    }
    CHECK(seen > 40);
}

TEST_CASE("a validation message is the command line's English line and follows the language in use") {
    AttentionConfig c;
    c.hidden_dim = 10;
    c.num_heads = 3;
    const Status s = validate(c);
    REQUIRE_FALSE(s.ok());
    CHECK(s.message().id == "error.config.heads_divide");
    // The line the command line printed before messages had ids, word for word.
    CHECK(s.error() ==
          "hidden_dim 10 is not divisible by num_heads 3 (each head gets hidden_dim / num_heads columns); "
          "try num_heads 2 or 5, or hidden_dim 9 or 12");
    CHECK(english(s.message()) == s.error());

    test::register_pseudo_language();
    {
        test::LanguageScope pseudo("pseudo");
        const std::string shown = text::render(s.message());
        // The pseudo language words only the alternatives; the rest falls back to English.
        CHECK(shown.find("try num_heads [2 | 5], or hidden_dim [9 | 12]") != std::string::npos);
        CHECK(s.error().find("2 or 5") != std::string::npos);  // error() stays English
    }
    CHECK(text::render(s.message()) == s.error());  // back in English: the same message re-rendered
}

TEST_CASE("a loader's message carries its id and values, and renders in the language in use") {
    const Result<Tensor> bad = io::decode_npy("hello world!", "'q.npy'");
    REQUIRE_FALSE(bad.ok());
    CHECK(bad.message().id == "error.npy.magic");
    CHECK(bad.error() == "'q.npy' is not a .npy file (bad magic bytes)");
    test::register_pseudo_language();
    test::LanguageScope pseudo("pseudo");
    CHECK(text::render(bad.message()) == "['q.npy' is no .npy]");
}

// Found by the lesson fuzzer: a field name with a newline in it, quoted by the message,
// made a two-line message (the command line promises one line).
TEST_CASE("a value with control characters in it keeps its message on one line") {
    const Message m("lesson.why.unknown_step", {{"name", std::string("at\tt\nn\x01") + "\xe6\xb3\xa8"}});
    const std::string line = english(m);
    CAPTURE(line);
    CHECK(line.find('\n') == std::string::npos);
    CHECK(line.find('\t') == std::string::npos);
    CHECK(line.find("at\\tt\\nn\\x01\xe6\xb3\xa8") != std::string::npos);  // UTF-8 kept as it is
}

TEST_CASE("a message whose id no language has shows a visible marker, and a verbatim one shows as it is") {
    const uint64_t before = text::markers_produced();
    CHECK(text::render(Message("error.no_such_message")).find("error.no_such_message") != std::string::npos);
    CHECK(text::markers_produced() == before + 1);
    CHECK(text::render(Message::plain("as it is")) == "as it is");
    CHECK(Status::failure("plain text").error() == "plain text");
}
