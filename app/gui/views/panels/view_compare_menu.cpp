#include "app/gui/views/panels/view_compare_menu.h"

#include <imgui.h>

#include <string>

#include "app/gui/state/compare_contrasts.h"
#include "app/gui/views/controls/view_controls_widgets.h"
#include "app/gui/kit/test_hook.h"
#include "app/text/languages.h"

namespace attn::gui {

using text::label;
using text::tr;

namespace {

std::string contrast_key(const Contrast& c, const char* part) { return std::string("compare.contrast.") + c.id + "." + part; }

}  // namespace

Actions draw_compare_menu(const CompareState& compare) {
    Actions out;
    if (!ImGui::BeginMainMenuBar()) return out;
    if (ImGui::BeginMenu(label("menu.view"))) {
        ImGui::Separator();
        if (ImGui::MenuItem(label("menu.view.compare"), "V", compare.on)) out.toggle_compare = true;
        if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", tr("menu.view.compare.tip"));
        ImGui::EndMenu();
    }
    const bool open = ImGui::BeginMenu(label("menu.compare"));
    note_item_for_tests("menu.compare");  // the GUI tests click the menu by its rectangle
    if (open) {
        if (ImGui::MenuItem(label("menu.view.compare"), "V", compare.on)) out.toggle_compare = true;
        ImGui::Separator();
        ImGui::TextDisabled("%s", tr("menu.compare.contrasts"));
        for (const Contrast& c : contrasts()) {
            const std::string name = tr(contrast_key(c, "name").c_str()) + std::string("###contrast.") + c.id;
            if (ImGui::MenuItem(name.c_str(), nullptr, compare.on && compare.contrast == c.id)) out.compare_contrast = c.id;
            note_item_for_tests(std::string("compare.contrast.") + c.id);
            if (ImGui::IsItemHovered()) {
                ImGui::BeginTooltip();
                ImGui::PushTextWrapPos(ImGui::GetFontSize() * 28.0f);
                ImGui::TextUnformatted(tr(contrast_key(c, "look").c_str()));
                ImGui::PopTextWrapPos();
                ImGui::EndTooltip();
            }
        }
        ImGui::EndMenu();
    }
    ImGui::EndMainMenuBar();
    return out;
}

Actions draw_compare_switch(const CompareState& compare) {
    Actions out;
    ImGui::TextUnformatted(tr("compare.switch.title"));
    // Each button on the same line while it fits, else on the next (a narrow 1024 px panel).
    flow_checkbox(label("compare.switch.a"));
    if (ImGui::RadioButton(label("compare.switch.a"), !compare.editing_b)) out.compare_edit_b = false;
    note_item_for_tests("compare.switch.a");
    flow_checkbox(label("compare.switch.b"));
    if (ImGui::RadioButton(label("compare.switch.b"), compare.editing_b)) out.compare_edit_b = true;
    note_item_for_tests("compare.switch.b");
    if (ImGui::SmallButton(label("compare.switch.stop"))) out.toggle_compare = true;
    ImGui::Separator();
    return out;
}

Actions as_b_edit(Actions edits) {
    edits.compare_b_edit = std::move(edits.session_edit);
    edits.session_edit.reset();
    edits.compare_b_changed = edits.config_changed;
    edits.config_changed = false;
    return edits;
}

}  // namespace attn::gui
