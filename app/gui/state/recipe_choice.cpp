#include "app/gui/state/recipe_choice.h"

#include "app/io/problem.h"
#include "app/text/languages.h"

namespace attn::gui {

Message choose_recipe(Session& session, const std::string& name) {
    const Recipe* recipe = find_recipe(name);
    if (recipe == nullptr) return Message("recipe.unknown", {{"name", name}, {"names", recipe_names()}});
    AttentionConfig config = session.config;
    io::ProblemSources sources;
    io::apply_recipe(*recipe, config, sources);
    // Built once here so a recipe that cannot run never replaces a working session, and so
    // the box shows the recipe's own token labels (its example input's words).
    Result<io::Problem> problem = io::build_problem(config, sources);
    if (!problem) return problem.message();
    Session chosen = session;
    chosen.sources = sources;
    chosen.sentence_message.clear();
    chosen.mismatch_note.clear();
    chosen.unknown_note.clear();
    chosen.cross_note.clear();
    chosen.batch_item = 0;
    init_from_problem(chosen, problem.value());  // also clears the trained model
    chosen.model_note = Message("recipe.note.chosen", {{"name", recipe->name}});
    session = std::move(chosen);
    return Message();
}

const Recipe* recipe_in_use(const Session& session) {
    if (session.model) return nullptr;
    return find_recipe(session.config.recipe);
}

std::vector<std::string> recipe_card_lines(const Recipe& recipe, const AttentionConfig& config) {
    std::vector<std::string> lines;
    lines.push_back(text::render(recipe.description));
    lines.push_back(recipe.article.empty() ? text::trf("recipe.card.source_file", {{"file", recipe.source_file}})
                                           : text::trf("recipe.card.article", {{"article", recipe.article}}));
    lines.push_back(text::render(recipe.special));
    lines.push_back(config.init == InitKind::Torch ? text::trf("recipe.card.init_torch", {{"seed", config.seed}})
                                                   : text::trf("recipe.card.init_attnviz", {{"seed", config.seed}}));
    return lines;
}

}  // namespace attn::gui
