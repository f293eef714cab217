#include "app/text/text_template.h"

#include <atomic>
#include <cstdio>
#include <sstream>

namespace attn::text {
namespace {

std::atomic<uint64_t> g_markers{0};

bool is_name_start(char c) { return (c >= 'a' && c <= 'z') || c == '_'; }
bool is_name_char(char c) { return is_name_start(c) || (c >= '0' && c <= '9'); }

// Length of the parameter name starting right after the '{' at `open`, or 0 when the
// brace does not start a parameter (then it is literal text).
size_t parameter_length(std::string_view pattern, size_t open) {
    size_t end = open + 1;
    if (end >= pattern.size() || !is_name_start(pattern[end])) return 0;
    while (end < pattern.size() && is_name_char(pattern[end])) ++end;
    if (end >= pattern.size() || pattern[end] != '}') return 0;
    return end - open - 1;
}

}  // namespace

std::string fixed(double value, int decimals) {
    std::ostringstream out;
    out.setf(std::ios::fixed);
    out.precision(decimals);
    out << value;
    return out.str();
}

std::string missing_marker(std::string_view name) {
    count_marker();
    return "\u27E6" + std::string(name) + "\u27E7";
}

void count_marker() { g_markers.fetch_add(1, std::memory_order_relaxed); }
uint64_t markers_produced() { return g_markers.load(std::memory_order_relaxed); }

template <typename ParamRange>
static std::string fill_template_from(std::string_view pattern, const ParamRange& params) {
    std::string out;
    out.reserve(pattern.size() + 16);
    size_t i = 0;
    while (i < pattern.size()) {
        const size_t open = pattern.find('{', i);
        if (open == std::string_view::npos) {
            out.append(pattern.substr(i));
            break;
        }
        out.append(pattern.substr(i, open - i));
        const size_t length = parameter_length(pattern, open);
        if (length == 0) {
            out.push_back('{');
            i = open + 1;
            continue;
        }
        const std::string_view name = pattern.substr(open + 1, length);
        const Param* found = nullptr;
        for (const Param& p : params)
            if (p.name == name) found = &p;
        out += found ? found->value : missing_marker(name);
        i = open + length + 2;
    }
    return out;
}

std::string fill_template(std::string_view pattern, Params params) { return fill_template_from(pattern, params); }

std::string fill_template(std::string_view pattern, const std::vector<Param>& params) {
    return fill_template_from(pattern, params);
}

std::vector<std::string> template_parameters(std::string_view pattern) {
    std::vector<std::string> names;
    for (size_t open = pattern.find('{'); open != std::string_view::npos; open = pattern.find('{', open + 1)) {
        const size_t length = parameter_length(pattern, open);
        if (length == 0) continue;
        std::string name(pattern.substr(open + 1, length));
        bool seen = false;
        for (const std::string& n : names) seen = seen || n == name;
        if (!seen) names.push_back(std::move(name));
    }
    return names;
}

}  // namespace attn::text
