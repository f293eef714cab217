#include "app/gui/views/controls/view_recipe.h"

#include <imgui.h>

#include <string>
#include <vector>

#include "app/gui/state/recipe_choice.h"
#include "app/gui/kit/cjk_wrap.h"
#include "app/text/languages.h"

namespace attn::gui {

Actions draw_recipe_menu_items(const Session& session) {
    Actions out;
    const Recipe* current = recipe_in_use(session);
    for (const Recipe& recipe : recipes()) {
        // The item's ImGui ID is the recipe's name, the same in every language.
        const std::string item = recipe.name + "###recipe." + recipe.name;
        if (ImGui::MenuItem(item.c_str(), nullptr, current == &recipe)) {
            Session chosen = session;
            const Message error = choose_recipe(chosen, recipe.name);
            if (!error.empty()) chosen.model_note = error;  // visible under the model picker
            out.config_changed = error.empty();
            out.session_edit = std::move(chosen);
        }
        if (ImGui::IsItemHovered())
            ImGui::SetTooltip("%s", text::trf("recipe.menu.tip", {{"description", text::render(recipe.description)},
                                                                  {"article", recipe.article.empty() ? recipe.source_file : recipe.article}}).c_str());
    }
    return out;
}

void draw_recipe_card(const Session& session) {
    const Recipe* recipe = recipe_in_use(session);
    if (recipe == nullptr) return;
    // "Recipe card: scratch-mha" with a stable ID whatever the name or language.
    const std::string header = std::string(text::tr("recipe.card")) + ": " + recipe->name + "###recipe.card";
    if (!ImGui::CollapsingHeader(header.c_str(), ImGuiTreeNodeFlags_DefaultOpen)) return;
    for (const std::string& line : recipe_card_lines(*recipe, session.config)) {
        ImGui::Bullet();
        text_wrapped(line.c_str());  // Chinese lines break between characters, never inside "softmax"
    }
}

}  // namespace attn::gui
