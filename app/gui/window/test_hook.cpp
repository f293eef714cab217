#include "app/gui/window/test_hook.h"

#include <imgui.h>
#include <imgui_internal.h>

#include <cstdio>
#include <cstdlib>
#include <string>

namespace attn::gui {
namespace {

const char* report_path() {
    static const char* path = std::getenv("ATTNVIZ_TEST_LAYOUT");
    return path && *path ? path : nullptr;
}

std::string& noted_this_frame() {
    static std::string noted;
    return noted;
}

}  // namespace

void note_item_for_tests(const std::string& name) {
    if (!report_path()) return;
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    char line[96];
    std::snprintf(line, sizeof line, " %.0f %.0f %.0f %.0f", min.x, min.y, max.x, max.y);
    note_for_tests("item " + name + line);
}

void note_for_tests(const std::string& line) {
    if (report_path()) noted_this_frame() += line + "\n";
}

void report_layout_for_tests(std::size_t pending_input, const std::vector<std::string>& messages, const std::string& sentence,
                             int seq_len) {
    const char* path = report_path();
    static std::string last;
    if (!path) return;
    const ImGuiContext& g = *ImGui::GetCurrentContext();
    std::string text;
    char line[512];
    for (const ImGuiWindow* w : g.Windows) {
        if (!w->Active || w->Hidden) continue;
        std::snprintf(line, sizeof line, "window %.0f %.0f %.0f %.0f %s\n", w->Pos.x, w->Pos.y, w->Size.x, w->Size.y, w->Name);
        text += line;
    }
    if (ImGuiWindow* w = g.NavWindow; w && g.NavId != 0) {
        // NavRectRel is the focused item's rectangle relative to the window's content start.
        const ImRect r = ImGui::WindowRectRelToAbs(w, w->NavRectRel[g.NavLayer]);
        std::snprintf(line, sizeof line, "focus %.0f %.0f %.0f %.0f %08x %s\n", r.Min.x, r.Min.y, r.Max.x, r.Max.y,
                      g.NavId, w->Name);
        text += line;
    }
    // The mouse position ImGui used this frame: a test that moved the mouse waits for it,
    // so the hovered id it reads belongs to the new position (under load the report lags).
    std::snprintf(line, sizeof line, "mouse %.0f %.0f\nhovered %08x\nactive %08x\ntext_input %d\npending_input %zu\n",
                  g.IO.MousePos.x, g.IO.MousePos.y, g.HoveredId, g.ActiveId, ImGui::GetIO().WantTextInput ? 1 : 0,
                  pending_input);
    text += line;
    for (const std::string& message : messages) {
        if (message.empty()) continue;
        std::string one_line = message;
        for (char& c : one_line)
            if (c == '\n') c = ' ';
        text += "message " + one_line + "\n";
    }
    text += noted_this_frame();
    noted_this_frame().clear();
    text += "sentence " + sentence + "\nseq_len " + std::to_string(seq_len) + "\n";
    if (text == last) return;
    last = text;
    const std::string temp = std::string(path) + ".tmp";
    if (std::FILE* f = std::fopen(temp.c_str(), "w")) {
        std::fputs(text.c_str(), f);
        std::fclose(f);
        std::rename(temp.c_str(), path);
    }
}

}  // namespace attn::gui
