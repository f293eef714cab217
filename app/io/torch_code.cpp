#include "app/io/torch_code.h"

#include <cassert>
#include <cstring>

#include "app/io/embedded_code.h"

namespace attn::io {
namespace {

constexpr std::string_view kMarker = "# step:";

std::string_view embedded_file(const char* name) {
    for (std::size_t i = 0; i < embedded::kCodeFileCount; ++i)
        if (std::strcmp(embedded::kCodeFiles[i].name, name) == 0) return embedded::kCodeFiles[i].text;
    assert(false && "assets/code file missing from the build (app/CMakeLists.txt globs assets/code/*.py)");
    return {};
}

std::string_view trimmed(std::string_view s) {
    while (!s.empty() && (s.front() == ' ' || s.front() == '\t')) s.remove_prefix(1);
    while (!s.empty() && (s.back() == ' ' || s.back() == '\t' || s.back() == '\r')) s.remove_suffix(1);
    return s;
}

// "attn_scores (B, H, L, S)" or "q, k, v (B, L, E)" or "k" -> the steps and the shape.
Status read_marker(std::string_view text, int line_number, CodeLine& line) {
    const auto where = [&](const std::string& what) {
        return Status::failure(Message::plain("line " + std::to_string(line_number) + ": " + what));
    };
    const std::size_t open = text.find('(');
    std::string_view names = trimmed(text.substr(0, open));
    if (open != std::string_view::npos) line.shape = std::string(trimmed(text.substr(open)));
    while (!names.empty()) {
        const std::size_t comma = names.find(',');
        const std::string_view name = trimmed(names.substr(0, comma));
        const std::optional<StepId> step = parse_step_name(name);
        if (!step) return where("unknown step '" + std::string(name) + "' in a step marker");
        line.steps.push_back(*step);
        names = comma == std::string_view::npos ? std::string_view() : names.substr(comma + 1);
    }
    if (line.steps.empty()) return where("a step marker names no step");
    return ok_status();
}

}  // namespace

std::string_view torch_module_source() { return embedded_file("attention_module.py"); }
std::string_view torch_runner_source() { return embedded_file("run_check.py"); }

Result<std::vector<CodeLine>> parse_step_markers(std::string_view source) {
    std::vector<CodeLine> lines;
    while (!source.empty()) {
        const std::size_t end = source.find('\n');
        std::string_view text = source.substr(0, end);
        source = end == std::string_view::npos ? std::string_view() : source.substr(end + 1);
        CodeLine line;
        const std::size_t marker = text.find(kMarker);
        if (marker != std::string_view::npos) {
            line.marker = std::string(trimmed(text.substr(marker)));
            if (Status s = read_marker(text.substr(marker + kMarker.size()), static_cast<int>(lines.size()) + 1, line); !s)
                return Result<std::vector<CodeLine>>::failure(s.message());
            text = text.substr(0, marker);
        }
        while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.remove_suffix(1);
        line.code = std::string(text);
        lines.push_back(std::move(line));
    }
    return lines;
}

const std::vector<CodeLine>& torch_module_lines() {
    static const std::vector<CodeLine> lines = [] {
        Result<std::vector<CodeLine>> parsed = parse_step_markers(torch_module_source());
        assert(parsed.ok() && "assets/code/attention_module.py has a bad step marker");
        return parsed.ok() ? std::move(parsed.value()) : std::vector<CodeLine>{};
    }();
    return lines;
}

std::vector<int> lines_of_step(const std::vector<CodeLine>& lines, StepId step) {
    std::vector<int> found;
    for (std::size_t i = 0; i < lines.size(); ++i)
        for (StepId s : lines[i].steps)
            if (s == step) found.push_back(static_cast<int>(i));
    return found;
}

}  // namespace attn::io
