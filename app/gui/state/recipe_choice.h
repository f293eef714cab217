// Choosing one of the articles' systems (core/recipe.h) in the window: the Recipe menu
// sets the whole configuration at once, as `--recipe NAME` does on the command line.
// Edits the Session only; the change is named in a note, never silent.
#pragma once

#include <string>
#include <vector>

#include "app/gui/state/session.h"
#include "core/recipe.h"

namespace attn::gui {

// Replaces the session's configuration and inputs by recipe `name`'s (a trained model in
// use is left for the random weights the recipe draws). Returns an empty message, or why
// not (the session is then unchanged).
Message choose_recipe(Session& session, const std::string& name);

// The recipe the session started from, or null (none chosen, or a trained model shown).
const Recipe* recipe_in_use(const Session& session);

// The recipe card as lines: what it is, the article it comes from, what is special about
// it, and where its numbers come from (torch's seed replay or AttnViz's own streams).
std::vector<std::string> recipe_card_lines(const Recipe& recipe, const AttentionConfig& config);

}  // namespace attn::gui
