#include "app/gui/views/dialogs/view_file_chooser.h"

#include <imgui.h>

#include "app/text/languages.h"

namespace attn::gui {

ChooserAction draw_file_chooser(FileChooser& chooser, float width, float height, std::string& picked) {
    ChooserAction action = ChooserAction::None;
    chooser.refresh_if_changed();  // a file saved into the folder from outside shows up at once
    if (ImGui::Button(text::label("chooser.up"))) {
        if (chooser.up()) action = ChooserAction::FolderChanged;
    }
    if (ImGui::IsItemHovered()) ImGui::SetTooltip("%s", text::tr("chooser.up.tip"));
    ImGui::SameLine();
    ImGui::TextDisabled("%s", text::tr("chooser.in"));
    ImGui::SameLine();
    ImGui::TextUnformatted(chooser.folder().c_str());

    std::string open_folder;
    ImGui::BeginChild("##listing", ImVec2(width, height), true);
    if (chooser.entries().empty()) ImGui::TextDisabled("%s", text::tr("chooser.empty"));

    const float size_x = width - ImGui::GetFontSize() * 5.5f;
    int index = 0;
    for (const FileEntry& e : chooser.entries()) {
        ImGui::PushID(index++);
        const std::string label = e.is_folder ? e.name + "/" : e.name;
        if (e.is_folder) ImGui::PushStyleColor(ImGuiCol_Text, ImGui::GetStyleColorVec4(ImGuiCol_ButtonActive));
        const bool clicked = ImGui::Selectable(label.c_str(), false, ImGuiSelectableFlags_AllowDoubleClick);
        if (e.is_folder) ImGui::PopStyleColor();
        if (clicked) {
            if (e.is_folder) {
                open_folder = e.name;
            } else {
                picked = chooser.path_of(e.name);
                action = ImGui::IsMouseDoubleClicked(ImGuiMouseButton_Left) ? ChooserAction::FileChosen : ChooserAction::FilePicked;
            }
        }
        if (!e.is_folder) {
            ImGui::SameLine(size_x);
            ImGui::TextDisabled("%s", format_file_size(e.bytes).c_str());
        }
        ImGui::PopID();
    }
    ImGui::EndChild();
    // Opened after the loop: entering re-lists the folder the loop was walking.
    if (!open_folder.empty() && chooser.enter(open_folder)) action = ChooserAction::FolderChanged;
    if (!chooser.error().empty()) ImGui::TextDisabled("%s", text::render(chooser.error()).c_str());
    return action;
}

}  // namespace attn::gui
