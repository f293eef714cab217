#include "app/gui/views/panels/note_editor.h"

#include <imgui.h>
#include <imgui_stdlib.h>

#include <algorithm>
#include <vector>

#include "app/gui/kit/cjk_wrap.h"

namespace attn::gui {
namespace {

constexpr std::string_view kSoftBreak = "\r\n";

// Where wrap_cjk ends each line, as offsets into `text` (a line's last space stays on it).
std::vector<size_t> break_offsets(std::string_view text, const std::string& wrapped) {
    std::vector<size_t> breaks;
    size_t i = 0, j = 0;
    while (i < text.size() && j < wrapped.size()) {
        if (text[i] == wrapped[j]) {
            ++i, ++j;
        } else if (wrapped[j] == '\n') {  // a line ends here; the spaces wrap_cjk dropped come before it
            while (i < text.size() && text[i] == ' ') ++i;
            breaks.push_back(i);
            ++j;
        } else if (text[i] == ' ') {
            ++i;
        } else {
            break;
        }
    }
    return breaks;
}

// Characters of the text kept before position `pos` of the text shown.
size_t kept_offset(std::string_view shown, size_t pos) {
    return without_soft_breaks(shown.substr(0, std::min(pos, shown.size()))).size();
}

// The position in `shown` after `kept` characters of the text kept (after a soft break
// that stands there, so the cursor starts the next line).
size_t shown_offset(std::string_view shown, size_t kept) {
    size_t counted = 0, at = 0;
    while (at < shown.size()) {
        if (shown.compare(at, kSoftBreak.size(), kSoftBreak) == 0) {
            at += kSoftBreak.size();
            continue;
        }
        if (counted == kept) break;
        ++counted;
        ++at;
    }
    return at;
}

struct WrapWidth {
    const ImFont* font;
    float size, width;
};

// While the field is active: the soft breaks follow the text as it is typed, the cursor
// staying after the same character.
int rewrap_while_typing(ImGuiInputTextCallbackData* data) {
    const WrapWidth& wrap = *static_cast<const WrapWidth*>(data->UserData);
    const std::string shown(data->Buf, static_cast<size_t>(data->BufTextLen));
    const std::string want = with_soft_breaks(*wrap.font, wrap.size, without_soft_breaks(shown), wrap.width);
    if (want == shown) return 0;
    const size_t kept = kept_offset(shown, static_cast<size_t>(data->CursorPos));
    data->DeleteChars(0, data->BufTextLen);
    data->InsertChars(0, want.c_str(), want.c_str() + want.size());
    data->CursorPos = static_cast<int>(shown_offset(want, kept));
    data->SelectionStart = data->SelectionEnd = data->CursorPos;
    return 0;
}

}  // namespace

std::string with_soft_breaks(const ImFont& font, float size, std::string_view text, float width) {
    const std::vector<size_t> breaks = break_offsets(text, wrap_cjk(font, size, text, width));
    std::string shown;
    size_t from = 0;
    for (const size_t at : breaks) {
        shown.append(text.substr(from, at - from));
        shown.append(kSoftBreak);
        from = at;
    }
    shown.append(text.substr(from));
    return shown;
}

std::string without_soft_breaks(std::string_view shown) {
    std::string kept;
    kept.reserve(shown.size());
    for (size_t i = 0; i < shown.size(); ++i) {
        if (shown[i] != '\r') {
            kept += shown[i];
            continue;
        }
        if (i + 1 < shown.size() && shown[i + 1] == '\n') ++i;  // the soft break's '\n' goes with it
    }
    return kept;
}

bool wrapped_text_field(const char* id, std::string& text, float height) {
    const ImGuiStyle& style = ImGui::GetStyle();
    const float field_w = ImGui::GetContentRegionAvail().x;
    // Inside the frame's padding, with room kept for the scrollbar a long text brings.
    WrapWidth wrap{ImGui::GetFont(), ImGui::GetFontSize(), std::max(1.0f, field_w - style.FramePadding.x * 2.0f - style.ScrollbarSize - 2.0f)};
    std::string shown = with_soft_breaks(*wrap.font, wrap.size, text, wrap.width);
    if (!ImGui::InputTextMultiline(id, &shown, ImVec2(field_w, height), ImGuiInputTextFlags_CallbackAlways, rewrap_while_typing, &wrap))
        return false;
    text = without_soft_breaks(shown);
    return true;
}

}  // namespace attn::gui
