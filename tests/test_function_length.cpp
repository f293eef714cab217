// The developers' guide: functions stay short (aim under ~60 lines, never over 80), so the
// forward reads like the maths and a view like a list of sections. This scans every .cpp
// under core/ and app/.
//
// A definition is found the way the core is written: it starts at the left margin with a
// line holding '(' whose signature (on that line or the next few) ends with '{' before any
// ';', and it ends at the next '}' at the left margin. Namespaces, types, data tables and
// preprocessor lines are not functions.
#include <doctest/doctest.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

namespace {

struct FunctionSpan {
    std::string signature;  // the definition's first line
    int first_line = 0;     // 1-based
    int lines = 0;          // signature to closing brace, both included
};

bool starts_with(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

std::string code_of(const std::string& line) {  // without a trailing // comment and spaces
    std::string s = line.substr(0, line.find("//"));
    while (!s.empty() && (s.back() == ' ' || s.back() == '\r')) s.pop_back();
    return s;
}

bool may_start_function(const std::string& line) {
    if (line.empty() || line[0] == ' ' || line[0] == '\t' || line.find('(') == std::string::npos) return false;
    for (const char* not_a_function : {"#", "//", "namespace", "struct", "class", "enum", "using", "template", "}", "static_assert"})
        if (starts_with(line, not_a_function)) return false;
    return true;
}

// Whether the signature starting at line `first` opens a body that does not close on the
// same line (a one-line function is short by definition).
bool opens_body(const std::vector<std::string>& lines, size_t first) {
    for (size_t n = first; n < lines.size() && n < first + 8; ++n) {
        const std::string s = code_of(lines[n]);
        if (!s.empty() && s.back() == ';') return false;
        if (!s.empty() && s.back() == '{') return true;
        if (!s.empty() && s.back() == '}') return false;
    }
    return false;
}

std::vector<FunctionSpan> function_spans(const std::string& text) {
    std::vector<std::string> lines;
    std::istringstream in(text);
    for (std::string line; std::getline(in, line);) lines.push_back(line);
    std::vector<FunctionSpan> spans;
    for (size_t n = 0; n < lines.size(); ++n) {
        if (!may_start_function(lines[n]) || !opens_body(lines, n)) continue;
        size_t end = n + 1;
        while (end < lines.size() && !starts_with(lines[end], "}")) ++end;
        if (end == lines.size()) break;
        spans.push_back({lines[n], static_cast<int>(n + 1), static_cast<int>(end - n + 1)});
        n = end;
    }
    return spans;
}

std::string numbered_body(int lines) {  // a function of `lines` lines in all
    std::string s = "int f(int x) {\n";
    for (int i = 0; i < lines - 2; ++i) s += "    x += " + std::to_string(i) + ";\n";
    return s + "}\n";
}

}  // namespace

TEST_CASE("the function-length scan measures definitions as the core writes them") {
    CHECK(function_spans(numbered_body(81)).at(0).lines == 81);
    const std::string two = "namespace a {\nstruct S {\n    int x;\n};\nint g() { return 1; }\n"
                            "Result<T> h(int a,\n            int b) {\n    return a;\n}\n" + numbered_body(5) + "}  // namespace a\n";
    const std::vector<FunctionSpan> spans = function_spans(two);
    REQUIRE(spans.size() == 2);
    CHECK(spans[0].first_line == 6);
    CHECK(spans[0].lines == 4);
    CHECK(spans[1].lines == 5);
}

namespace {

// Every function definition in the .cpp files under `folder`, with where it starts.
struct FoundFunction {
    std::string where;  // "file.cpp:line signature"
    int lines = 0;
};
std::vector<FoundFunction> functions_under(const std::string& folder) {
    std::vector<FoundFunction> found;
    for (const auto& entry : std::filesystem::recursive_directory_iterator(std::string(ATTNVIZ_SOURCE_DIR) + "/" + folder)) {
        if (entry.path().extension() != ".cpp") continue;
        std::ifstream file(entry.path());
        std::stringstream text;
        text << file.rdbuf();
        const std::string relative = std::filesystem::relative(entry.path(), ATTNVIZ_SOURCE_DIR).generic_string();
        for (const FunctionSpan& f : function_spans(text.str()))
            found.push_back({relative + ":" + std::to_string(f.first_line) + " " + f.signature, f.lines});
    }
    return found;
}

void check_function_lengths(const char* folder, int at_least) {
    int longest = 0;
    const std::vector<FoundFunction> functions = functions_under(folder);
    for (const FoundFunction& f : functions) {
        CAPTURE(f.where);
        CHECK(f.lines <= 80);
        longest = std::max(longest, f.lines);
    }
    MESSAGE(std::string(folder), "/: ", functions.size(), " functions, the longest ", longest, " lines");
    CHECK(static_cast<int>(functions.size()) > at_least);  // the scan found the folder's functions, not a handful
}

}  // namespace

TEST_CASE("no function in core/ is longer than 80 lines") { check_function_lengths("core", 200); }

TEST_CASE("no function in app/ is longer than 80 lines") { check_function_lengths("app", 1000); }
