// Templates with named parameters: "{heads} heads of {head_dim} numbers".
//
// A parameter is `{name}` with name made of a-z, 0-9 and _ (starting with a letter or
// _); any other brace is literal text, so formulas such as "head_{H-1}" need no
// escaping. Values are passed as name/value pairs, never by position, so a translation
// may reorder them freely.
#pragma once

#include <cstdint>
#include <initializer_list>
#include <string>
#include <string_view>
#include <vector>

namespace attn::text {

// One named value for a template. Numbers are written the plain way (42, -3);
// use fixed() for a chosen number of decimals.
struct Param {
    std::string_view name;
    std::string value;
    Param(std::string_view n, std::string v) : name(n), value(std::move(v)) {}
    Param(std::string_view n, const char* v) : name(n), value(v) {}
    Param(std::string_view n, int v) : name(n), value(std::to_string(v)) {}
    Param(std::string_view n, long v) : name(n), value(std::to_string(v)) {}
    Param(std::string_view n, long long v) : name(n), value(std::to_string(v)) {}
    Param(std::string_view n, unsigned long v) : name(n), value(std::to_string(v)) {}
    Param(std::string_view n, unsigned long long v) : name(n), value(std::to_string(v)) {}
};
using Params = std::initializer_list<Param>;

// `value` with exactly `decimals` digits after the point: fixed(1.41421, 3) = "1.414".
std::string fixed(double value, int decimals);

// The marker shown in place of a missing key or parameter: "⟦name⟧", visible on
// purpose so a gap in a language file is seen in the window, not hidden.
std::string missing_marker(std::string_view name);

// `pattern` with each {name} replaced by its value; a parameter with no value becomes
// missing_marker(name). Parameters given but not used are ignored.
std::string fill_template(std::string_view pattern, Params params);
// The same with values gathered at run time (a Message's arguments).
std::string fill_template(std::string_view pattern, const std::vector<Param>& params);

// The distinct parameter names `pattern` uses, in order of first use.
std::vector<std::string> template_parameters(std::string_view pattern);

// How many markers fill_template and the catalogues have produced in this process
// (tests draw every view and require this to stay 0).
uint64_t markers_produced();
void count_marker();

}  // namespace attn::text
