// `attnviz recipes`: the articles' systems --recipe NAME starts from, one line each, or
// (--json) a JSON array with each recipe's card and configuration.
#include <cstdio>
#include <nlohmann/json.hpp>

#include "app/cli/commands.h"
#include "app/io/trace_writer.h"
#include "app/text/languages.h"
#include "core/recipe.h"

namespace attn::cli {

CLI::App* add_recipes_command(CLI::App& parent, RecipesCommand& command) {
    CLI::App* sub = parent.add_subcommand("recipes", text::tr("cli.help.cmd.recipes"));
    sub->add_flag("--json", command.json, text::tr("cli.help.recipes.json"));
    return sub;
}

int run_recipes(const RecipesCommand& command) {
    if (command.json) {
        nlohmann::json out = nlohmann::json::array();
        for (const Recipe& r : recipes())
            out.push_back({{"name", r.name},
                           {"description", english(r.description)},
                           {"article", r.article},
                           {"source_file", r.source_file},
                           {"special", english(r.special)},
                           {"module", to_string(r.module)},
                           {"torch_class", r.torch_class},
                           {"inputs_before_module", r.inputs_before_module},
                           {"input_draw", r.input_draw == InputDraw::Randn ? "randn" : "rand"},
                           {"example_input", r.example_input},
                           {"config", io::config_to_json(r.config)}});
        std::printf("%s\n", out.dump(1).c_str());
        return 0;
    }
    for (const Recipe& r : recipes()) std::printf("%-16s %s\n", r.name.c_str(), text::render(r.description).c_str());
    return 0;
}

}  // namespace attn::cli
