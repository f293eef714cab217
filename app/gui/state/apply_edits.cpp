#include "app/gui/state/apply_edits.h"

#include <utility>

#include "app/gui/state/compare.h"
#include "app/text/languages.h"

namespace attn::gui {

void apply_edits(AppState& state, Actions& actions) {
    if (actions.session_edit) state.session = std::move(*actions.session_edit);
    if (actions.sources_edit) state.session.sources = std::move(*actions.sources_edit);
    if (actions.settings_edit) state.settings = std::move(*actions.settings_edit);
    // The catalogue in use is the process's, not a view's to switch.
    if (actions.language_changed && !text::set_language(state.settings.language)) state.settings.language = text::active().code();
    if (actions.hint_dismissed) state.settings.hint_seen = true;
    if (actions.dialog_edit) state.jobs.dialog = std::move(*actions.dialog_edit);
    if (actions.compare_edit_b) state.compare.editing_b = *actions.compare_edit_b;
    if (actions.compare_b_edit) {
        state.compare.b = std::move(*actions.compare_b_edit);
        // The batch item and layer move both sides.
        if (share_view_choices(state.compare.b, state.session)) actions.config_changed = true;
    }
    actions.compare_b_edit.reset();
    actions.compare_edit_b.reset();
    actions.session_edit.reset();
    actions.sources_edit.reset();
    actions.settings_edit.reset();
    actions.dialog_edit.reset();
    actions.hint_dismissed = false;
}

}  // namespace attn::gui
