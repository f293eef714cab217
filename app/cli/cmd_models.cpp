// `attnviz models`: the example models compiled into the binary, one line each, or
// (--json) a JSON array a script can read.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/io/model_loader.h"
#include "app/text/languages.h"

namespace attn::cli {

CLI::App* add_models_command(CLI::App& parent, ModelsCommand& command) {
    CLI::App* sub = parent.add_subcommand("models", text::tr("cli.help.cmd.models"));
    sub->add_flag("--json", command.json, text::tr("cli.help.models.json"));
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
    // The words come from the catalogue in the language in use (--lang), the card's
    // description in its own version of that language.
    for (const ModelSpec& s : specs) {
        const std::string kind = text::tr(std::string("model.kind.") + to_string(s.kind));
        const std::string line = text::trf("cli.models.line", {{"kind", kind},
                                                               {"layers", s.layers},
                                                               {"heads", s.heads},
                                                               {"hidden_dim", s.hidden_dim},
                                                               {"vocabulary", s.vocab_size},
                                                               {"max_len", s.max_len},
                                                               {"description", text::render(s.description)}});
        std::printf("%-10s %s\n", s.name.c_str(), line.c_str());
    }
    std::printf("%-10s %s\n", "random", text::tr("cli.models.random"));
    return 0;
}

}  // namespace attn::cli
