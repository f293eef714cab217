// The Recipe menu (one of the articles' systems, whole, in one click) and the recipe card
// at the top of the controls. A choice is made on a copy of the Session (through
// recipe_choice.h) and handed back as Actions::session_edit.
#pragma once

#include "app/gui/state/actions.h"
#include "app/gui/state/session.h"

namespace attn::gui {

// The Recipe menu's items (inside an open menu).
Actions draw_recipe_menu_items(const Session& session);
// The card of the recipe in use (nothing when none is): what it is, its article, what is
// special about it, where its weights come from.
void draw_recipe_card(const Session& session);

}  // namespace attn::gui
