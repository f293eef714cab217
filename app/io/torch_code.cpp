#include "app/io/torch_code.h"

#include <cassert>
#include <cstring>
#include <map>
#include <mutex>

#include "app/io/embedded_code.h"
#include "app/text/languages.h"
#include "core/config_fields.h"
#include "core/forward_plan.h"
#include "core/recipe.h"

namespace attn::io {
namespace {

constexpr std::string_view kMarker = "# step:";

std::string_view embedded_file(const char* name) {
    for (std::size_t i = 0; i < embedded::kCodeFilesCount; ++i)
        if (std::strcmp(embedded::kCodeFiles[i].name, name) == 0) return embedded::kCodeFiles[i].text();
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
    // The markers are in AttnViz's own embedded code: a bad one is the developer's mistake.
    const auto where = [&](const std::string& what) {
        return Status::failure(Message::internal("line " + std::to_string(line_number) + ": " + what));
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
    line.step_shapes.assign(line.steps.size(), line.shape);
    return ok_status();
}

// A condition on one of the module's arguments that is a field's flag (the field table's
// export name, core/config_fields.h): `self.add_bias_kv`, `add_bias_kv` and
// `self.out_proj is not None` read the value the exported module receives, from the same
// row module_args (torch_export.cpp) writes it from. nullopt: no such argument.
std::optional<bool> option_condition(std::string_view condition, const AttentionConfig* c) {
    std::string_view name = condition;
    if (name.substr(0, 5) == "self.") name.remove_prefix(5);
    constexpr std::string_view kNotNone = " is not None";
    if (name.size() > kNotNone.size() && name.substr(name.size() - kNotNone.size()) == kNotNone)
        name.remove_suffix(kNotNone.size());
    for (const ConfigField& field : config_fields()) {
        const auto* member = std::get_if<bool AttentionConfig::*>(&field.member);
        if (!member || name != field.export_key) continue;
        if (!c) return false;
        return field.has(kExportNegated) ? !(c->**member) : c->**member;
    }
    return std::nullopt;
}

// The conditions the module's `if` lines test, as this configuration answers them.
// nullopt: not a condition of the module (counted as taken, and reported by
// unknown_conditions so a test catches a condition added to the code but not here).
std::optional<bool> condition_value(std::string_view condition, const AttentionConfig* c) {
    if (const std::optional<bool> option = option_condition(condition, c)) return option;
    const ForwardPlan plan = c ? plan_for(*c) : ForwardPlan{};
    // A configuration with --decode-from is shown as its prefill and decode steps, each a
    // block of rows against the KV cache: the code's cache branch runs.
    const bool decoding = plan.cache || (c && c->decode_from > 0);
    const bool fused = c && c->variant == Variant::Fused;
    const struct {
        std::string_view text;
        bool value;
    } table[] = {
        {"fused", fused},
        {"self.fused", fused},
        {"self.rope is not None", plan.rope},
        {"self.rope[\"style\"] == \"half\"", c && c->rope_style == RopeStyle::Half},
        {"self.H_kv < self.H", plan.repeat_kv},
        {"cache is not None", decoding},  // a prefill's or decode step's trace (run_attention_block)
        {"has_mask and self.mask_before_scale", plan.mask && plan.mask_before_scale},
        {"has_mask", plan.mask},
        {"mask is not None", plan.mask},  // the runner always passes the boolean mask when there is one
        {"mask_add is not None", c && !c->mask_file.empty() && !c->mask_file_is_boolean},
        {"self.dropout.p > 0", plan.dropout},
        {"dropout_keep is not None", plan.dropout},  // the exported script replays AttnViz's draw
        // recipe_modules.py's classes
        {"attention_mask is not None", plan.mask},  // the recipe passes its padding mask when it has one
        {"H_kv < H", plan.repeat_kv},
        {"use_cache", decoding},                    // ScratchKvCache
        {"past_key_value is not None", decoding},   // LlamaAttention's Hugging Face cache
        {"m.dropout > 0.0 and self.training", plan.dropout},
        {"m._qkv_same_embed_dim", c && c->key_dim() == c->E() && c->value_dim() == c->E()},
        {"m.in_proj_bias is None", c && !c->qkv_bias()},
    };
    for (const auto& entry : table)
        if (entry.text == condition) return entry.value;
    return std::nullopt;
}

// "if self.rope is not None:  # ..." -> "self.rope is not None"; "" when not an `if` line.
std::string_view if_condition(std::string_view code) {
    code = trimmed(code.substr(0, code.find(" #")));  // the module's conditions hold no '#'

    if (code.substr(0, 3) != "if " || code.empty()) return {};
    const std::size_t colon = code.rfind(':');
    return colon == std::string_view::npos ? std::string_view() : trimmed(code.substr(3, colon - 3));
}

std::size_t indent_of(std::string_view code) {
    const std::size_t first = code.find_first_not_of(' ');
    return first == std::string_view::npos ? std::string_view::npos : first;
}

// A top-level block of a Python file: a `class` or `def` and its indented body.
struct TopBlock {
    std::string name;
    std::vector<std::string_view> lines;  // trailing blank lines removed
};

std::vector<TopBlock> top_level_blocks(std::string_view source) {
    std::vector<TopBlock> blocks;
    bool inside = false;
    while (!source.empty()) {
        const std::size_t end = source.find('\n');
        const std::string_view line = source.substr(0, end);
        source = end == std::string_view::npos ? std::string_view() : source.substr(end + 1);
        const bool top = !line.empty() && line.front() != ' ' && line.front() != '\t';
        if (top) {
            inside = false;
            for (std::string_view keyword : {std::string_view("class "), std::string_view("def ")})
                if (line.substr(0, keyword.size()) == keyword) {
                    const std::string_view rest = line.substr(keyword.size());
                    blocks.push_back({std::string(rest.substr(0, rest.find_first_of("(:"))), {}});
                    inside = true;
                }
        }
        if (inside) blocks.back().lines.push_back(line);
    }
    for (TopBlock& b : blocks)
        while (!b.lines.empty() && trimmed(b.lines.back()).empty()) b.lines.pop_back();
    return blocks;
}

bool calls(const TopBlock& block, const std::string& name) {
    for (std::string_view line : block.lines)
        if (line.find(name + "(") != std::string_view::npos && line.substr(0, 6) != "class ") return true;
    return false;
}

std::vector<CodeLine> class_lines(const std::string& class_name) {
    const std::vector<TopBlock> blocks = top_level_blocks(recipe_modules_source());
    const TopBlock* shown = nullptr;
    for (const TopBlock& b : blocks)
        if (b.name == class_name && b.lines.front().substr(0, 6) == "class ") shown = &b;
    if (!shown) return {};
    std::string text;
    for (const TopBlock& b : blocks)  // helpers first, in the file's order
        if (&b != shown && calls(*shown, b.name)) {
            for (std::string_view line : b.lines) text.append(line).append("\n");
            text.append("\n\n");
        }
    for (std::string_view line : shown->lines) text.append(line).append("\n");
    Result<std::vector<CodeLine>> parsed = parse_step_markers(text);
    assert(parsed.ok() && "assets/code/recipe_modules.py has a bad step marker");
    return parsed.ok() ? article_lines(parsed.value()) : std::vector<CodeLine>{};
}

// One source line with its comment key (if any) replaced; appends it, with its newline, to `out`.
void append_with_comment(std::string_view line, const text::Catalogue& language, std::string& out) {
    const std::size_t open = line.find("{code.comment.");
    const std::size_t close = open == std::string_view::npos ? open : line.find('}', open);
    if (close == std::string_view::npos) {
        out.append(line).append("\n");
        return;
    }
    const std::string_view before = line.substr(0, open), after = line.substr(close + 1);
    const std::string said = language.text(line.substr(open + 1, close - open - 1));
    const std::string_view lead = trimmed(before);
    // A whole-line comment or a docstring goes on over several lines (at the key's
    // indentation); a comment after code stays one line.
    const bool own_lines = lead.empty() || lead == "#" || lead == "\"\"\"";
    const std::string go_on = std::string(before.substr(0, before.find_first_not_of(' '))) + (lead == "#" ? "# " : "");
    out.append(before);
    std::size_t start = 0;
    for (std::size_t end; (end = said.find('\n', start)) != std::string::npos; start = end + 1) {
        out.append(said, start, end - start);
        const bool blank_next = end + 1 < said.size() && said[end + 1] == '\n';  // no trailing spaces on a blank line
        out.append(own_lines ? "\n" + (blank_next ? go_on.substr(0, go_on.find_last_not_of(' ') + 1) : go_on) : " ");
    }
    out.append(said, start, std::string::npos).append(after).append("\n");
}

}  // namespace

std::string with_comments(std::string_view source, const text::Catalogue& language) {
    std::string out;
    while (!source.empty()) {
        const std::size_t end = source.find('\n');
        append_with_comment(source.substr(0, end), language, out);
        source = end == std::string_view::npos ? std::string_view() : source.substr(end + 1);
    }
    return out;
}

std::string_view torch_module_source() {
    static const std::string english = with_comments(embedded_file("attention_module.py"), text::english());
    return english;
}
std::string_view torch_runner_source() {
    static const std::string english = with_comments(embedded_file("run_check.py"), text::english());
    return english;
}
std::string torch_script(const text::Catalogue& language) {
    return with_comments(embedded_file("attention_module.py"), language) + with_comments(embedded_file("run_check.py"), language);
}

std::string_view recipe_modules_source() { return embedded_file("recipe_modules.py"); }

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
            if (Status s = read_marker(text.substr(marker + kMarker.size()), static_cast<int>(lines.size()) + 1, line);
                !s)
                return Result<std::vector<CodeLine>>::failure(s.message());
            text = text.substr(0, marker);
        }
        while (!text.empty() && (text.back() == ' ' || text.back() == '\r')) text.remove_suffix(1);
        line.code = std::string(text);
        lines.push_back(std::move(line));
    }
    return lines;
}

const std::vector<CodeLine>& torch_module_lines() { return torch_module_lines(text::english()); }

const std::vector<CodeLine>& torch_module_lines(const text::Catalogue& language) {
    // The window may ask from several threads; each language is parsed once.
    static std::mutex guard;
    static std::map<std::string, std::vector<CodeLine>> parsed_by_language;
    const std::lock_guard<std::mutex> lock(guard);
    auto found = parsed_by_language.find(language.code());
    if (found != parsed_by_language.end()) return found->second;  // std::map never moves its values
    Result<std::vector<CodeLine>> parsed = parse_step_markers(with_comments(embedded_file("attention_module.py"), language));
    assert(parsed.ok() && "assets/code/attention_module.py has a bad step marker");
    std::vector<CodeLine> lines = parsed.ok() ? std::move(parsed.value()) : std::vector<CodeLine>{};
    return parsed_by_language.emplace(language.code(), std::move(lines)).first->second;
}

const std::vector<CodeLine>& recipe_class_lines(const std::string& class_name) {
    // Tests and the window may ask from several threads; each class is parsed once.
    static std::mutex guard;
    static std::map<std::string, std::vector<CodeLine>> parsed;
    const std::lock_guard<std::mutex> lock(guard);
    auto found = parsed.find(class_name);
    if (found == parsed.end()) found = parsed.emplace(class_name, class_lines(class_name)).first;
    return found->second;  // std::map never moves its values
}

std::string code_class_for(const AttentionConfig& config) {
    if (config.recipe.empty()) return {};
    const Recipe* recipe = find_recipe(config.recipe);
    if (!recipe || recipe_class_lines(recipe->torch_class).empty()) return {};
    return recipe->torch_class;
}

const std::vector<CodeLine>& code_lines_for(const AttentionConfig& config) { return code_lines_for(config, text::english()); }

const std::vector<CodeLine>& code_lines_for(const AttentionConfig& config, const text::Catalogue& language) {
    const std::string name = code_class_for(config);
    return name.empty() ? torch_module_lines(language) : recipe_class_lines(name);
}

std::vector<bool> lines_run(const std::vector<CodeLine>& lines, const AttentionConfig& config) {
    struct Branch {
        std::size_t indent;  // of the `if` / `else` line; its body is deeper
        bool runs;
    };
    std::vector<Branch> open;                           // enclosing branches, innermost last
    std::vector<std::pair<std::size_t, bool>> last_if;  // (indent, taken) of the latest `if` per level
    std::vector<bool> run(lines.size(), true);
    for (std::size_t i = 0; i < lines.size(); ++i) {
        const std::string& code = lines[i].code;
        const std::size_t indent = indent_of(code);
        if (indent == std::string_view::npos) {  // a blank line belongs to what surrounds it
            run[i] = open.empty() || open.back().runs;
            continue;
        }
        while (!open.empty() && open.back().indent >= indent) open.pop_back();
        while (!last_if.empty() && last_if.back().first > indent) last_if.pop_back();
        const bool here = open.empty() || open.back().runs;
        run[i] = here;
        const std::string_view condition = if_condition(code);
        const std::string_view bare = trimmed(code);
        if (!condition.empty()) {
            const bool taken = condition_value(condition, &config).value_or(true);
            while (!last_if.empty() && last_if.back().first >= indent) last_if.pop_back();
            last_if.emplace_back(indent, taken);
            open.push_back({indent, here && taken});
        } else if (bare == "else:") {
            const bool if_taken = !last_if.empty() && last_if.back().first == indent && last_if.back().second;
            open.push_back({indent, here && !if_taken});
        }
    }
    return run;
}

std::vector<std::string> unknown_conditions(const std::vector<CodeLine>& lines) {
    std::vector<std::string> unknown;
    for (const CodeLine& line : lines) {
        const std::string_view condition = if_condition(line.code);
        if (!condition.empty() && !condition_value(condition, nullptr)) unknown.emplace_back(condition);
    }
    return unknown;
}

std::vector<int> lines_of_step_run(const std::vector<CodeLine>& lines, StepId step, const AttentionConfig& config) {
    const std::vector<bool> run = lines_run(lines, config);
    std::vector<int> found;
    for (int i : lines_of_step(lines, step))
        if (run[static_cast<size_t>(i)]) found.push_back(i);
    return found;
}

const std::string& shape_of(const CodeLine& line, StepId step) {
    static const std::string none;
    for (std::size_t i = 0; i < line.steps.size() && i < line.step_shapes.size(); ++i)
        if (line.steps[i] == step) return line.step_shapes[i];
    return none;
}

std::vector<int> lines_of_step(const std::vector<CodeLine>& lines, StepId step) {
    std::vector<int> found;
    for (std::size_t i = 0; i < lines.size(); ++i)
        for (StepId s : lines[i].steps)
            if (s == step) found.push_back(static_cast<int>(i));
    return found;
}

}  // namespace attn::io
