#include "app/gui/state/screens.h"

#include <algorithm>

#include "app/text/languages.h"
#include "app/text/text_join.h"

namespace attn::gui {
namespace {

int primary_index(const std::vector<ScreenInfo>& screens) {
    for (size_t i = 0; i < screens.size(); ++i)
        if (screens[i].primary) return static_cast<int>(i);
    return screens.empty() ? -1 : 0;
}

bool has_name(const std::vector<ScreenInfo>& screens, const std::string& name) {
    return std::any_of(screens.begin(), screens.end(), [&](const ScreenInfo& s) { return s.name == name; });
}

}  // namespace

std::string screen_label(const std::vector<ScreenInfo>& screens, int index) {
    const ScreenInfo& s = screens[static_cast<size_t>(index)];
    return text::trf("screen.label", {{"number", index + 1}, {"name", s.name}, {"w", s.w}, {"h", s.h}});
}

Result<int> screen_by_number(const std::vector<ScreenInfo>& screens, int number) {
    if (number >= 1 && number <= static_cast<int>(screens.size())) return number - 1;
    std::vector<std::string> labels;
    for (int i = 0; i < static_cast<int>(screens.size()); ++i) labels.push_back(screen_label(screens, i));
    return Result<int>::failure(Message("screen.no_such_number",
                                        {{"number", number}, {"count", screens.size()}, {"screens", text::join_list(labels)}}));
}

ScreenChoice choose_screen(const std::vector<ScreenInfo>& screens, const std::string& wanted) {
    ScreenChoice choice;
    for (size_t i = 0; i < screens.size(); ++i)
        if (!wanted.empty() && screens[i].name == wanted) {
            choice.index = static_cast<int>(i);
            return choice;
        }
    choice.index = primary_index(screens);
    if (!wanted.empty() && choice.index >= 0)
        choice.problem = Message("screen.not_connected", {{"wanted", wanted}, {"screen", screen_label(screens, choice.index)}});
    return choice;
}

std::vector<std::string> new_screens(const std::vector<ScreenInfo>& before, const std::vector<ScreenInfo>& now) {
    std::vector<std::string> added;
    for (const ScreenInfo& s : now)
        if (!has_name(before, s.name)) added.push_back(s.name);
    return added;
}

}  // namespace attn::gui
