// article_lines (app/io/torch_code.h): a recipe class as its article writes it, without
// the self.keep calls that record AttnViz's steps. Reads one line at a time: the recipe
// classes keep every recorded statement on one line (a test holds them to that).
#include <algorithm>
#include <optional>
#include <string_view>

#include "app/io/torch_code.h"

namespace attn::io {
namespace {

constexpr std::string_view kKeep = "self.keep(";
constexpr std::string_view kTraceOnly = "# trace-only";
constexpr std::string_view kArticle = "# article:";
constexpr std::size_t kNone = std::string_view::npos;

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && s.front() == ' ') s.remove_prefix(1);
    while (!s.empty() && s.back() == ' ') s.remove_suffix(1);
    return s;
}

// Walks code[from..] outside Python string literals, calling `stop(i)` for each such
// character; returns the first index where it says true, or kNone. One quote-aware walk
// for comments and brackets alike.
template <typename Stop>
std::size_t find_outside_strings(std::string_view code, std::size_t from, Stop stop) {
    char quote = 0;
    for (std::size_t i = from; i < code.size(); ++i) {
        const char ch = code[i];
        if (quote) {
            if (ch == '\\')
                ++i;
            else if (ch == quote)
                quote = 0;
        } else if (ch == '"' || ch == '\'') {
            quote = ch;
        } else if (stop(i)) {
            return i;
        }
    }
    return kNone;
}

// Where the comment of a Python line starts: its first '#' outside a string.
std::size_t comment_start(std::string_view code) {
    return find_outside_strings(code, 0, [&](std::size_t i) { return code[i] == '#'; });
}

std::string_view statement_of(std::string_view code) { return trimmed(code.substr(0, comment_start(code))); }

// Calls `at_top(i)` for each index of code[open, close) at bracket depth 1 (inside the
// bracket at `open`, outside strings and nested brackets); returns the index just past the
// matching close bracket, or kNone when the line does not close it.
template <typename AtTop>
std::size_t scan_brackets(std::string_view code, std::size_t open, AtTop at_top) {
    int depth = 0;
    const std::size_t close = find_outside_strings(code, open, [&](std::size_t i) {
        const char ch = code[i];
        if (ch == '(' || ch == '[' || ch == '{') ++depth;
        else if ((ch == ')' || ch == ']' || ch == '}') && --depth == 0) return true;
        else if (depth == 1) at_top(i);
        return false;
    });
    return close == kNone ? kNone : close + 1;
}

// Comma-separated parts of a parameter or target list, trimmed.
std::vector<std::string_view> split_commas(std::string_view list) {
    std::vector<std::string_view> parts;
    for (std::size_t comma = list.find(',');; comma = list.find(',')) {
        parts.push_back(trimmed(list.substr(0, comma)));
        if (comma == kNone) break;
        list.remove_prefix(comma + 1);
    }
    return parts;
}

struct KeepCall {
    std::size_t begin = 0, end = 0;  // code[begin, end) is `self.keep(...)`
    std::string_view step;           // its first argument without quotes: "q"
    std::string_view value;          // its second: the kept tensor's expression
};

// The self.keep call starting at `begin`, or nullopt when it is not a whole
// two-argument call on this line.
std::optional<KeepCall> keep_call_at(std::string_view code, std::size_t begin) {
    const std::size_t open = begin + kKeep.size() - 1;
    std::size_t comma = kNone;
    const std::size_t end = scan_brackets(code, open, [&](std::size_t i) {
        if (code[i] == ',' && comma == kNone) comma = i;
    });
    if (end == kNone || comma == kNone) return std::nullopt;
    KeepCall call;
    call.begin = begin;
    call.end = end;
    call.step = trimmed(code.substr(open + 1, comma - open - 1));
    if (call.step.size() >= 2 && (call.step.front() == '"' || call.step.front() == '\''))
        call.step = call.step.substr(1, call.step.size() - 2);
    call.value = trimmed(code.substr(comma + 1, end - 1 - comma - 1));
    return call;
}

// `code` with each `self.keep("name", expr)` replaced by `expr`.
std::string without_keeps(std::string code) {
    for (std::size_t at = code.find(kKeep); at != std::string::npos; at = code.find(kKeep, at)) {
        const std::optional<KeepCall> call = keep_call_at(code, at);
        if (!call) break;
        code.replace(call->begin, call->end - call->begin, std::string(call->value));
    }
    return code;
}

// The calls of a statement made of self.keep calls alone (`self.keep("input", x)`,
// `self.keep("q", Q), self.keep("k", K)`); empty when the statement does anything else.
std::vector<KeepCall> bare_keeps(std::string_view code) {
    const std::string_view statement = statement_of(code);
    std::vector<KeepCall> calls;
    for (std::size_t at = 0; at < statement.size();) {
        if (statement.substr(at, kKeep.size()) != kKeep) return {};
        const std::optional<KeepCall> call = keep_call_at(statement, at);
        if (!call) return {};
        calls.push_back(*call);
        at = statement.find_first_not_of(' ', call->end);
        if (at == kNone) break;
        if (statement[at] != ',') return {};
        at = statement.find_first_not_of(' ', at + 1);
    }
    return calls;
}

// Whether `code` makes the variable `name`: a `def` taking it as a parameter, or an
// assignment to it (alone or in a tuple: `cos, sin = ...`).
bool makes(std::string_view code, std::string_view name) {
    const std::string_view statement = statement_of(code);
    if (statement.substr(0, 4) == "def ") {
        const std::size_t open = statement.find('(');
        const std::size_t end = open == kNone ? kNone : scan_brackets(statement, open, [](std::size_t) {});
        if (end == kNone) return false;
        for (std::string_view parameter : split_commas(statement.substr(open + 1, end - open - 2)))
            if (trimmed(parameter.substr(0, parameter.find_first_of(":="))) == name) return true;
        return false;
    }
    const std::size_t equals = statement.find(" = ");
    if (equals == kNone || statement.substr(0, equals).find_first_of("([") != kNone) return false;
    const std::vector<std::string_view> targets = split_commas(statement.substr(0, equals));
    return std::find(targets.begin(), targets.end(), name) != targets.end();
}

void add_step(CodeLine& line, StepId step, const std::string& shape) {
    if (std::find(line.steps.begin(), line.steps.end(), step) != line.steps.end()) return;
    line.steps.push_back(step);
    line.step_shapes.push_back(shape);
}

// The shown line a hidden line's steps go to: the nearest one above that makes `value`,
// else (no value, or none makes it) the nearest one above with code.
std::size_t home_of(const std::vector<CodeLine>& shown, std::string_view value) {
    for (std::size_t i = shown.size(); i-- > 0;)
        if (!value.empty() && makes(shown[i].code, value)) return i;
    for (std::size_t i = shown.size(); i-- > 0;)
        if (!trimmed(shown[i].code).empty()) return i;
    return 0;
}

// Moves the steps of `hidden`, a line the panel does not show, to the shown lines
// that make their values.
void rehome_steps(std::vector<CodeLine>& shown, const CodeLine& hidden, const std::vector<KeepCall>& keeps) {
    if (shown.empty()) return;
    for (std::size_t s = 0; s < hidden.steps.size(); ++s) {
        std::string_view value = keeps.empty() ? std::string_view() : keeps.front().value;
        for (const KeepCall& k : keeps)
            if (k.step == step_name(hidden.steps[s])) value = k.value;
        add_step(shown[home_of(shown, value)], hidden.steps[s], hidden.step_shapes[s]);
    }
}

// The code a shown line displays.
std::string article_code(const std::string& code) {
    const std::size_t indent = std::min(code.find_first_not_of(' '), code.size());
    if (const std::size_t article = code.find(kArticle); article != std::string::npos)
        return code.substr(0, indent) + std::string(trimmed(std::string_view(code).substr(article + kArticle.size())));
    std::string shown = without_keeps(code);
    if (shown.rfind("class ", 0) == 0)
        if (const std::size_t base = shown.find("(Traced):"); base != std::string::npos)
            shown.replace(base, 9, "(nn.Module):");
    while (!shown.empty() && shown.back() == ' ') shown.pop_back();
    return shown;
}

}  // namespace

std::string step_tag(const CodeLine& line) {
    std::string tag;
    for (StepId id : line.steps) tag += (tag.empty() ? "" : " ") + std::string(step_name(id));
    if (tag.size() > kStepTagChars && line.steps.size() > 1)
        tag = std::string(step_name(line.steps.front())) + " +" + std::to_string(line.steps.size() - 1);
    return tag;
}

std::vector<CodeLine> article_lines(const std::vector<CodeLine>& lines) {
    std::vector<CodeLine> shown;
    shown.reserve(lines.size());
    for (const CodeLine& line : lines) {
        if (line.code.find(kTraceOnly) != std::string::npos) {
            rehome_steps(shown, line, {});
            continue;
        }
        if (const std::vector<KeepCall> keeps = bare_keeps(line.code); !keeps.empty()) {
            rehome_steps(shown, line, keeps);
            continue;
        }
        CodeLine out = line;
        out.code = article_code(line.code);
        shown.push_back(std::move(out));
    }
    return shown;
}

}  // namespace attn::io
