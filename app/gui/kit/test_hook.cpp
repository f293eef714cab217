#include "app/gui/kit/test_hook.h"

#include <algorithm>
#include <imgui.h>
#include <imgui_internal.h>

#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <string>
#include <utility>

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

bool layout_report_enabled() { return report_path() != nullptr; }

bool current_window_is_placed() {
    const ImGuiWindow* window = ImGui::GetCurrentWindowRead();
    return window && !window->Hidden && !window->SkipItems;
}

bool window_still_settling() {
    for (const ImGuiWindow* w : ImGui::GetCurrentContext()->Windows)
        if (w->Active && (w->Appearing || w->HiddenFramesCanSkipItems > 0 || w->HiddenFramesCannotSkipItems > 0)) return true;
    return false;
}

void note_item_for_tests(const std::string& name) {
    if (!report_path()) return;
    // A window that appears is laid out once unseen (ImGui measures an auto-sized popup
    // before it centres it), at a place it then leaves: a test clicking the item there
    // would miss it (Discard landed on Cancel). Only items drawn where they are are named.
    if (!current_window_is_placed()) return;
    const ImVec2 min = ImGui::GetItemRectMin(), max = ImGui::GetItemRectMax();
    char line[96];
    std::snprintf(line, sizeof line, " %.0f %.0f %.0f %.0f", min.x, min.y, max.x, max.y);
    note_for_tests("item " + name + line);
}

void note_for_tests(const std::string& line) {
    if (report_path()) noted_this_frame() += line + "\n";
}

void report_layout_for_tests(std::size_t pending_input, const std::vector<std::string>& messages, const std::string& sentence,
                             int seq_len, const std::vector<std::string>& tokens) {
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
    text += "sentence " + sentence + "\nseq_len " + std::to_string(seq_len) + "\ntokens";
    for (const std::string& token : tokens) text += " " + token;
    text += "\n";
    if (text == last) return;
    last = text;
    const std::string temp = std::string(path) + ".tmp";
    if (std::FILE* f = std::fopen(temp.c_str(), "w")) {
        std::fputs(text.c_str(), f);
        std::fclose(f);
        std::rename(temp.c_str(), path);
    }
}

namespace {

// A glyph as the atlas holds it, keyed by its top-left atlas coordinate (unique per glyph).
struct AtlasGlyph {
    const ImFontGlyph* glyph;
    const ImFont* font;
};

std::map<std::pair<float, float>, AtlasGlyph> atlas_glyphs() {
    std::map<std::pair<float, float>, AtlasGlyph> at;
    for (const ImFont* font : ImGui::GetIO().Fonts->Fonts)
        for (const ImFontGlyph& g : font->Glyphs)
            if (g.Visible) at[{g.U0, g.V0}] = {&g, font};
    return at;
}

void append_utf8(std::string& text, unsigned codepoint) {
    char utf8[5] = {};
    ImTextCharToUtf8(utf8, codepoint);
    text += utf8;
}

}  // namespace

std::vector<DrawnRun> drawn_runs(const ImDrawData& draw_data) {
    const auto at = atlas_glyphs();
    std::vector<DrawnRun> runs;
    for (int l = 0; l < draw_data.CmdListsCount; ++l) {
        const ImDrawList& list = *draw_data.CmdLists[l];
        const ImVector<ImDrawVert>& v = list.VtxBuffer;
        std::vector<ImVec4> clip(static_cast<size_t>(v.Size), ImVec4(-1e9f, -1e9f, 1e9f, 1e9f));  // per vertex
        for (const ImDrawCmd& cmd : list.CmdBuffer)
            for (unsigned e = 0; e < cmd.ElemCount; ++e) {
                const unsigned at = cmd.VtxOffset + list.IdxBuffer[static_cast<int>(cmd.IdxOffset + e)];
                if (at < clip.size()) clip[at] = cmd.ClipRect;
            }
        float pen = 0, baseline = 0, em = 0;  // where the next glyph of the open run starts
        bool open = false;
        for (int i = 0; i + 3 < v.Size; ++i) {
            const auto it = at.find({v[i].uv.x, v[i].uv.y});
            // A glyph quad: corners (x0, y0) (x1, y0) (x1, y1) (x0, y1) with the glyph's atlas corners.
            if (it == at.end() || v[i + 2].uv.x != it->second.glyph->U1 || v[i + 2].uv.y != it->second.glyph->V1) continue;
            const ImFontGlyph& g = *it->second.glyph;
            const float height = g.Y1 - g.Y0;
            const float scale = height > 0 ? (v[i + 2].pos.y - v[i].pos.y) / height : 1.0f;
            const float start = v[i].pos.x - g.X0 * scale, base = v[i].pos.y - g.Y0 * scale;
            // A space is about a third of an em; a wider gap (between menu titles, table
            // columns, a label and its value) starts a run of its own.
            const bool same_line = open && std::fabs(base - baseline) < 0.5f && start > pen - 0.5f && start < pen + 0.6f * em;
            const ImVec4& box = clip[static_cast<size_t>(i)];
            const float glyph_em = it->second.font->FontSize * scale;
            if (!same_line) {
                runs.push_back({"", v[i].pos.x, v[i].pos.y, list._OwnerName ? list._OwnerName : ""});
                runs.back().cut_start = v[i].pos.x < box.x + 1;  // text starts inside its clip rectangle
                runs.back().top = v[i].pos.y;
                runs.back().bottom = v[i + 2].pos.y;
            } else if (start > pen + 0.5f) {
                runs.back().text += ' ';
            }
            runs.back().right = start + g.AdvanceX * scale;
            runs.back().top = std::min(runs.back().top, v[i].pos.y);
            runs.back().bottom = std::max(runs.back().bottom, v[i + 2].pos.y);
            // ImGui drops a glyph that starts past the right edge: a run reaching it may go on.
            runs.back().cut_end = start + g.AdvanceX * scale > box.z - 2;
            const bool missing = &g == it->second.font->FallbackGlyph;
            append_utf8(runs.back().text, missing ? 0xFFFDu : g.Codepoint);
            pen = start + g.AdvanceX * scale;
            baseline = base;
            em = glyph_em;
            open = true;
            i += 3;  // the quad's other corners
        }
    }
    return runs;
}

void report_drawn_text_for_tests() {
    static const char* path = std::getenv("ATTNVIZ_TEST_TEXT");
    static std::set<std::string> written;
    if (!path || !*path || !ImGui::GetDrawData()) return;
    std::string text;
    for (const DrawnRun& run : drawn_runs(*ImGui::GetDrawData())) {
        char where[64];
        std::snprintf(where, sizeof where, "%.0f\t%.0f\t", run.x, run.y);
        const char* cut = run.cut_start ? (run.cut_end ? "<>" : "<") : (run.cut_end ? ">" : "-");
        const std::string line = where + run.window + "\t" + cut + "\t" + run.text + "\n";
        if (written.insert(line).second) text += line;
    }
    if (text.empty()) return;
    if (std::FILE* f = std::fopen(path, "a")) {
        std::fputs(text.c_str(), f);
        std::fclose(f);
    }
}

}  // namespace attn::gui
