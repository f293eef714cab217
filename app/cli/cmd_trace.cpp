// `attnviz trace`: run one forward and write every step as .npy plus manifest.json.
#include <cstdio>
#include <optional>
#include <string>

#include "app/cli/commands.h"
#include "app/io/file_util.h"
#include "app/io/model_problem.h"
#include "app/io/safetensors.h"
#include "app/io/trace_writer.h"
#include "app/io/weight_names.h"
#include "app/text/languages.h"
#include "core/forward_plan.h"
#include "core/model/tokenizer.h"

namespace attn::cli {

int fail(const std::string& message) {
    // Messages can quote names from files; keep them on one line whatever they hold.
    std::string line;
    for (unsigned char ch : message) {
        if (ch == '\n') line += "\\n";
        else if (ch < 0x20 || ch == 0x7f) line += '?';
        else line += static_cast<char>(ch);
    }
    std::fprintf(stderr, "attnviz: error: %s\n", line.c_str());
    return 2;
}

int fail(const Message& message) { return fail(text::render(message)); }

CLI::App* add_trace_command(CLI::App& parent, TraceCommand& command) {
    CLI::App* sub = parent.add_subcommand("trace", text::tr("cli.help.cmd.trace"));
    add_config_options(*sub, command.config);
    CLI::Option* out = sub->add_option("--out,-o", command.out_dir, text::tr("cli.help.trace.out"));
    sub->add_flag("--list-steps", command.list_steps, text::tr("cli.help.trace.list_steps"))
        ->excludes(out);
    sub->add_option("--save-weights", command.save_weights, text::tr("cli.help.trace.save_weights"));
    sub->add_option("--compare", command.compare, text::tr("cli.help.trace.compare"))->excludes("--list-steps");
    return sub;
}

int run_trace(const TraceCommand& command) {
    if (!command.list_steps && command.out_dir.empty()) return fail("--out is required: give a folder for the trace, e.g. --out trace");
    Result<io::Problem> problem = resolve_problem(command.config);
    if (!problem) return fail(problem.message());
    if (command.list_steps && !problem->model) {
        if (Status s = validate(problem->config); !s) return fail(s.message());
        for (StepId id : planned_steps(problem->config)) std::printf("%s\n", step_name(id));
        return 0;
    }
    if (!command.compare.empty()) {
        if (!command.save_weights.empty()) return fail("--save-weights cannot be combined with --compare");
        return run_trace_compare(command, problem.value());
    }
    if (problem->config.decode_from > 0 || command.config.generate > 0) {
        if (!command.save_weights.empty()) return fail(Message("error.decode.save_weights"));
        return run_trace_generation(command, problem.value());
    }
    Result<Trace> trace = io::compute_trace(problem.value());
    if (!trace) return fail(trace.message());
    if (command.list_steps) {  // a model's steps depend on the layer and the model's kind: list what it recorded
        for (const Step& step : trace->steps) std::printf("%s\n", step.name());
        return 0;
    }
    for (const Message& note : problem->notes) std::fprintf(stderr, "attnviz: note: %s\n", english(note).c_str());
    // Not an error: the trace is written, with <unk> where the words were.
    if (!trace->model.unknown_words.empty())
        std::fprintf(stderr, "attnviz: note: %s\n", english(unknown_words_note(trace->model.unknown_words)).c_str());
    // Weights first, under a temporary name: if they cannot be written no trace is left
    // behind, and they take their name (possibly that of the --weights input) only once
    // the trace is written too. A failed run leaves every file it found as it was.
    std::optional<io::StagedFile> weights_file;
    if (!command.save_weights.empty()) {
        Result<io::StagedFile> staged =
            io::StagedFile::write(command.save_weights, io::encode_safetensors(io::weights_to_tensors(*problem->weights)));
        if (!staged) return fail(staged.message());
        weights_file.emplace(std::move(staged).value());
    }
    // A recipe's example input names its rows ("Your journey starts ..."), and so do the words
    // of --tokens (我的 GPU 很快 -> 我, 的, GPU, 很, 快): tokens.json keeps them.
    io::TraceExtras labels;
    const bool labelled = (!problem->config.recipe.empty() || !command.config.sentence.empty()) && !problem->model;
    if (labelled) {
        labels.query_tokens = problem->query_tokens;
        labels.key_tokens = problem->key_tokens;
    }
    if (Status s = io::write_trace_dir(trace.value(), command.out_dir, labelled ? &labels : nullptr, text::active()); !s)
        return fail(s.message());
    if (weights_file)
        if (Status s = weights_file->commit(); !s) return fail(s.message());
    std::printf("wrote %zu steps (%s) to %s\n", trace->steps.size(), format_bytes(trace->storage_bytes()).c_str(),
                command.out_dir.c_str());
    return 0;
}

}  // namespace attn::cli
