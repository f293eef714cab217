// `attnviz export-torch`: the configuration as a folder with a runnable PyTorch script,
// its weights, inputs and AttnViz's trace (app/io/torch_export.h).
#include <cstdio>
#include <string>

#include "app/cli/commands.h"
#include "app/io/model_problem.h"
#include "app/io/torch_export.h"
#include "app/text/languages.h"

namespace attn::cli {

CLI::App* add_export_torch_command(CLI::App& parent, ExportTorchCommand& command) {
    CLI::App* sub = parent.add_subcommand(
        "export-torch",
        text::tr("cli.help.cmd.export_torch"));
    add_config_options(*sub, command.config);
    sub->add_option("--out,-o", command.out_dir, text::tr("cli.help.export_torch.out"))->required();
    return sub;
}

int run_export_torch(const ExportTorchCommand& command) {
    Result<io::Problem> problem = resolve_problem(command.config);
    if (!problem) return fail(problem.message());
    Result<Trace> trace = io::compute_trace(problem.value());
    if (!trace) return fail(trace.message());
    // --lang: the script's comments in that language (its code is the same in every language).
    if (Status s = io::write_torch_export(trace.value(), command.out_dir, &text::active()); !s) return fail(s.message());
    std::printf("wrote a PyTorch export of %zu steps to %s; run: python3 %s/attention.py\n", trace->steps.size(),
                command.out_dir.c_str(), command.out_dir.c_str());
    return 0;
}

}  // namespace attn::cli
