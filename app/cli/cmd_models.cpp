// `attnviz models`: the example models compiled into the binary, one line each, or
// (--json) a JSON array a script can read.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/io/model_loader.h"

namespace attn::cli {

CLI::App* add_models_command(CLI::App& parent, ModelsCommand& command) {
    CLI::App* sub = parent.add_subcommand("models", "list the trained example models (use one with --model NAME)");
    sub->add_flag("--json", command.json, "print a JSON array of objects (name, kind, layers, heads, ...)");
    return sub;
}

int run_models(const ModelsCommand& command) {
    const std::vector<ModelSpec> specs = io::list_models();
    if (command.json) {
        nlohmann::json out = nlohmann::json::array();
        for (const ModelSpec& s : specs)
            out.push_back({{"name", s.name},
                           {"kind", to_string(s.kind)},
                           {"layers", s.layers},
                           {"heads", s.heads},
                           {"hidden_dim", s.hidden_dim},
                           {"head_dim", s.head_dim()},
                           {"mlp_dim", s.mlp_dim},
                           {"vocab_size", s.vocab_size},
                           {"max_len", s.max_len},
                           {"causal", s.causal},
                           {"example", s.example},
                           {"description", english(s.description)}});
        std::printf("%s\n", out.dump(1).c_str());
        return 0;
    }
    for (const ModelSpec& s : specs)
        std::printf("%-8s %-11s %d layer(s) x %d heads, hidden_dim %d, vocabulary %d, up to %d tokens: %s\n", s.name.c_str(),
                    to_string(s.kind), s.layers, s.heads, s.hidden_dim, s.vocab_size, s.max_len, english(s.description).c_str());
    std::printf("%-8s %-11s the seeded nn.Linear-style weights (the default when no --model is given)\n", "random", "untrained");
    return 0;
}

}  // namespace attn::cli
