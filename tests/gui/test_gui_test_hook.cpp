// The window tests click widgets where the layout report says they are. A popup is laid out
// once unseen before ImGui centres it, so its items must be named only from the frame it is
// drawn in, and the loop must draw that frame without waiting for input (a click at the
// unseen place landed on Cancel instead of Discard on another machine).
#include <doctest/doctest.h>
#include <imgui.h>

#include "app/gui/kit/test_hook.h"
#include "tests/gui/headless_imgui.h"

using namespace attn::gui;

namespace {

struct PopupFrame {
    bool placed = false;    // current_window_is_placed() inside the popup
    bool settling = false;  // window_still_settling() after the frame
    ImVec2 discard;         // the Discard button's top-left corner
};

// One frame of an auto-sized modal centred on the screen, as the dialogs draw theirs.
PopupFrame popup_frame(bool open_it) {
    PopupFrame f;
    ImGui::NewFrame();
    if (open_it) ImGui::OpenPopup("question");
    ImGui::SetNextWindowPos(ImGui::GetMainViewport()->GetCenter(), ImGuiCond_Appearing, ImVec2(0.5f, 0.5f));
    if (ImGui::BeginPopupModal("question", nullptr, ImGuiWindowFlags_AlwaysAutoResize)) {
        ImGui::TextUnformatted("The lesson has unsaved changes.");
        ImGui::Button("Save");
        ImGui::SameLine();
        ImGui::Button("Discard");
        f.discard = ImGui::GetItemRectMin();
        f.placed = current_window_is_placed();
        ImGui::EndPopup();
    }
    ImGui::Render();
    f.settling = window_still_settling();
    return f;
}

}  // namespace

TEST_CASE("a popup's items are reported only once drawn where they stay, and its first frame asks for another") {
    testing::HeadlessImGui ui(1024, 768);
    const PopupFrame first = popup_frame(true);
    CHECK_FALSE(first.placed);  // laid out unseen: not where it will be shown
    CHECK(first.settling);      // so the loop draws again instead of waiting for input
    const PopupFrame second = popup_frame(false);
    CHECK(second.placed);
    CHECK(second.discard.x != first.discard.x);  // the popup moved to the centre
    const PopupFrame third = popup_frame(false);
    CHECK(third.placed);
    CHECK_FALSE(third.settling);  // an idle window may wait again
    CHECK(third.discard.x == second.discard.x);
    CHECK(third.discard.y == second.discard.y);
}
