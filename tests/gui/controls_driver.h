// Drives the controls panel headless, one widget at a time, by its ImGui ID: the ID comes
// from the widget's catalogue key ("###key", the same in every language), the widget's
// rectangle from ImGui's keyboard navigation (focus it, draw a frame, read the focused
// rectangle), and the click through ImGui's mouse input. The panel is drawn tall enough
// that every section fits without scrolling.
#pragma once

#include <imgui.h>
#include <imgui_internal.h>

#include <optional>
#include <string>

#include "app/gui/views/frame.h"
#include "app/gui/views/controls/view_controls.h"
#include "tests/gui/headless_imgui.h"

namespace attn::gui::testing {

struct ControlsDriver {
    static constexpr const char* kWindow = "controls under test";
    float width = 420.0f, height = 3000.0f;

    // One frame of the controls alone, in a window of their own, on `state` read-only;
    // then its edits are applied as draw_frame applies them. True when the configuration
    // changed (a new trace would be asked for).
    bool frame(AppState& state) const {
        ImGui::NewFrame();
        ImGui::SetNextWindowPos(ImVec2(0, 0));
        ImGui::SetNextWindowSize(ImVec2(width, height));
        ImGui::Begin(kWindow, nullptr, ImGuiWindowFlags_NoTitleBar | ImGuiWindowFlags_NoMove);
        Actions out = draw_controls(state.session, state.results, state.ui, state.settings, false);
        ImGui::End();
        ImGui::Render();
        const bool changed = out.config_changed;
        apply_edits(state, out);
        return changed;
    }
    // The ID of the item whose label ends in "###`key`" (a catalogue label) or is "##`key`"
    // / `key` itself (pass the whole ImGui label then), in `window` (the panel by default).
    static ImGuiID id_of(const std::string& imgui_label, const char* window = kWindow) {
        ImGuiWindow* w = ImGui::FindWindowByName(window);
        return w ? w->GetID(imgui_label.c_str()) : 0;
    }
    static ImGuiID key_id(const std::string& key, const char* window = kWindow) { return id_of("###" + key, window); }

    // Opens (or closes) the collapsing section with catalogue key `key` before the next
    // frame, as a click on its header would.
    static void set_section_open(const std::string& key, bool open = true) {
        ImGuiWindow* w = ImGui::FindWindowByName(kWindow);
        if (w) w->StateStorage.SetInt(key_id(key), open ? 1 : 0);
    }
    // Where item `id` of `window` was drawn, or nothing when it was not drawn.
    std::optional<ImRect> rect_of(AppState& state, ImGuiID id, const char* window = kWindow) const {
        ImGuiWindow* w = ImGui::FindWindowByName(window);
        if (!w || id == 0) return std::nullopt;
        ImGuiContext& g = *GImGui;
        // A window that just got focus may pick its first item for navigation in the
        // next frame, replacing the one asked for: then ask again.
        for (int attempt = 0; attempt < 3; ++attempt) {
            ImGui::FocusWindow(w);
            ImGui::SetFocusID(id, w);
            g.NavIdIsAlive = false;
            frame(state);
            if (g.NavIdIsAlive && g.NavId == id && g.NavWindow == w) return ImGui::WindowRectRelToAbs(w, w->NavRectRel[g.NavLayer]);
            if (g.NavId == id && g.NavWindow == w) break;  // focused but not drawn
        }
        return std::nullopt;
    }
    // A left click at (x, y): press and release over three frames; true when the
// configuration changed in any of them.
    bool click_at(AppState& state, ImVec2 at) const {
        ImGuiIO& io = ImGui::GetIO();
        io.MousePos = at;
        bool out = frame(state);
        io.MouseDown[0] = true;
        out |= frame(state);
        io.MouseDown[0] = false;
        out |= frame(state);
        return out;
    }
    // Clicks item `id` in its middle (left part for a checkbox, whose box is at the left).
    bool click(AppState& state, ImGuiID id, const char* window = kWindow, bool at_left = false) const {
        const std::optional<ImRect> r = rect_of(state, id, window);
        REQUIRE_MESSAGE(r.has_value(), "item not drawn");
        const ImVec2 at = at_left ? ImVec2(r->Min.x + 3.0f, (r->Min.y + r->Max.y) * 0.5f) : r->GetCenter();
        return click_at(state, at);
    }
    // Clicks a checkbox (its box) given its catalogue key.
    bool tick(AppState& state, const std::string& key) const {
        return click(state, key_id(key), kWindow, true);
    }
    // Opens the combo labelled `imgui_label`; returns its popup window's name ("" when
    // it did not open). The popup settles (size, initial navigation) over two frames.
    std::string open_combo(AppState& state, const std::string& imgui_label) const {
        click(state, id_of(imgui_label));
        frame(state);
        frame(state);
        for (const ImGuiWindow* w : GImGui->Windows)
            if (w->Active && (w->Flags & ImGuiWindowFlags_Popup)) return w->Name;
        return "";
    }
    // True when an item with ID `id` was drawn in `window` in the next frame.
    bool drawn(AppState& state, ImGuiID id, const char* window) const { return rect_of(state, id, window).has_value(); }
    // Opens the combo labelled `imgui_label` and picks the entry labelled `entry_label`
    // (ImGui activates it as a click or Enter would).
    bool choose(AppState& state, const std::string& imgui_label, const std::string& entry_label) const {
        const std::string popup = open_combo(state, imgui_label);
        REQUIRE_MESSAGE(!popup.empty(), "the combo did not open");
        ImGui::ActivateItem(id_of(entry_label, popup.c_str()));
        bool out = frame(state);
        out |= frame(state);
        // A refused entry leaves the combo open: close it.
        if (ImGui::FindWindowByName(popup.c_str())->Active) click_at(state, ImVec2(width + 100.0f, 10.0f));
        return out;
    }
    // Ctrl+click on a slider or Enter in an input field, `typed` replacing the text, Enter.
    bool type_into(AppState& state, ImGuiID id, const std::string& typed, bool ctrl_click) const {
        ImGuiIO& io = ImGui::GetIO();
        io.KeyCtrl = ctrl_click;
        bool out = click(state, id);
        io.KeyCtrl = false;
        // Select everything typed before, then type over it.
        io.KeyMap[ImGuiKey_A] = 'A';
        io.KeyCtrl = true;
        io.KeysDown['A'] = true;
        out |= frame(state);
        io.KeysDown['A'] = false;
        io.KeyCtrl = false;
        out |= frame(state);
        io.AddInputCharactersUTF8(typed.c_str());
        out |= frame(state);
        io.KeyMap[ImGuiKey_Enter] = 257;
        io.KeysDown[257] = true;
        out |= frame(state);
        io.KeysDown[257] = false;
        out |= frame(state);
        return out;
    }
};

}  // namespace attn::gui::testing
