// The PyTorch code AttnViz shows beside the canvas and writes with `export-torch`
// (assets/code/, embedded into the binary), and the map from its lines to the steps.
//
// A line that produces a step ends in a marker comment naming it, with the shape:
//     attn_scores = queries @ keys.transpose(-2, -1)  # step: attn_scores (B, H, L, S)
//     q, k, v = qkv.chunk(3, dim=-1)  # step: q, k, v (B, L, E)
// The markers are the only link between the code and the trace, so the code the panel
// highlights is the code the exported script runs.
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "core/config.h"
#include "core/result.h"
#include "core/step_id.h"

namespace attn::text {
class Catalogue;
}

namespace attn::io {

// The prose of the code's comments and docstrings is a catalogue entry, written in the
// .py files as its key: `# {code.comment.fused}`, `"""{code.comment.rotate}"""`. So each
// comment is declared once per language (assets/lang/*.json) and the code once.

// `source` (an assets/code file) with each `{code.comment.<name>}` replaced by its text in
// `language`. A text of several lines goes on as further comment lines at the key's
// indentation (in a docstring, as further lines of it); after code on the same line it is
// one line. The code itself is not changed.
std::string with_comments(std::string_view source, const text::Catalogue& language);

// assets/code/attention_module.py: the nn.Module, as shown in the code panel (comments in English).
std::string_view torch_module_source();
// assets/code/run_check.py: what the exported script adds after the module (loading
// the export, running the forward, comparing each step with the trace), comments in English.
std::string_view torch_runner_source();
// The script `export-torch` writes (attention.py): the module, then the runner, with their
// comments in `language`.
std::string torch_script(const text::Catalogue& language);

struct CodeLine {
    std::string code;           // the line without its marker comment (trailing spaces removed)
    std::string marker;         // "# step: attn_scores (B, H, L, S)", or "" for a plain line
    std::vector<StepId> steps;  // what the marker names (empty for a plain line)
    std::string shape;          // the marker's shape text "(B, H, L, S)", or ""
    // The shape of each entry of `steps`: the marker's, or, for a step article_lines
    // moved here from a line it hides, that line's marker's.
    std::vector<std::string> step_shapes;
};
// The shape `line` gives for `step` ("" when it names no such step).
const std::string& shape_of(const CodeLine& line, StepId step);

// Splits `source` into lines and reads their markers. A marker naming no known step, or
// naming none at all, is an error "line N: ...".
Result<std::vector<CodeLine>> parse_step_markers(std::string_view source);

// assets/code/recipe_modules.py: one class per recipe (the code that wrote the recipe
// fixtures of tests/fixtures/recipes), with the same step markers.
std::string_view recipe_modules_source();

// A recipe class's lines as its article writes them, for the code panel
// (app/io/code_display.cpp): recipe_modules.py records each step with
// `self.keep("q", expr)`, which no article writes. The exported code and the fixtures
// keep the calls; only the panel shows this form.
//  - `self.keep("q", expr)` is shown as `expr`;
//  - a statement made only of self.keep calls (`self.keep("input", x)`) is not shown:
//    its steps go to the nearest line above that makes the kept value (the `def` whose
//    parameter it is, or the assignment to it), so every step still has a line;
//  - `class Name(Traced):` is shown as `class Name(nn.Module):`;
//  - a line whose comment says `# trace-only` is not shown (its steps, if any, go to the
//    shown line above); one with `# article: code` is shown as that code.
std::vector<CodeLine> article_lines(const std::vector<CodeLine>& lines);

// torch_module_source() parsed once (the embedded file is checked by a test, so a
// failure here is a programmer error: asserts, then gives no lines).
const std::vector<CodeLine>& torch_module_lines();

// The lines of `class_name` in recipe_modules.py: from `class Name` to the next
// top-level statement, preceded by the top-level classes and functions it calls
// (ScratchStacked builds ScratchCausalHead, LlamaAttention calls rotate_half), blank
// line between, as article_lines shows them. Empty when the file has no such class.
// Parsed once per class.
const std::vector<CodeLine>& recipe_class_lines(const std::string& class_name);
// What the code panel shows for `config`: its recipe's class when config.recipe names a
// known recipe whose class is in recipe_modules.py, else the generic module.
const std::vector<CodeLine>& code_lines_for(const AttentionConfig& config);
// The PyTorch class code_lines_for shows ("ScratchMha"), or "" for the generic module.
std::string code_class_for(const AttentionConfig& config);

// The code panel's margin tag of `line`: its steps' names ("q", "q k v"), or the first
// name and how many more ("input +2") when they would not fit in kStepTagChars.
constexpr std::size_t kStepTagChars = 16;
std::string step_tag(const CodeLine& line);

// The indices of the lines whose marker names `step` (empty when none does).
std::vector<int> lines_of_step(const std::vector<CodeLine>& lines, StepId step);

// Which lines run for `config` (one entry per line): an `if` or `else` body whose
// condition is false for this configuration does not. Conditions are read from the
// code itself ("if self.rope is not None:") through a table of the module's conditions
// (torch_code.cpp); a condition missing from it counts as taken.
std::vector<bool> lines_run(const std::vector<CodeLine>& lines, const AttentionConfig& config);
// The condition texts of every `if` in `lines` that the table does not know ("" when
// all are known): a test holds the module to the table.
std::vector<std::string> unknown_conditions(const std::vector<CodeLine>& lines);
// The lines that produce `step` and run for `config`.
std::vector<int> lines_of_step_run(const std::vector<CodeLine>& lines, StepId step, const AttentionConfig& config);

}  // namespace attn::io
