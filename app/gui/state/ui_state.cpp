#include "app/gui/state/ui_state.h"

namespace attn::gui {

int operand_head(const CanvasUi& ui, const StepDisplay& sd, const CellRef& active) {
    if (active.valid() && active.step == sd.step && active.panel < static_cast<int>(sd.panels.size())) {
        const int head = sd.panels[static_cast<size_t>(active.panel)].head;
        if (head >= 0) return head;
    }
    return ui.chosen_head();
}

void set_status(UiState& ui, Message message, double now) {
    ui.status = std::move(message);
    ui.status_time = now;
}

void tell_presenter(UiState& ui, Message message, double now) {
    ui.present.notice = message;
    ui.present.notice_time = now;
    set_status(ui, std::move(message), now);
}

}  // namespace attn::gui
