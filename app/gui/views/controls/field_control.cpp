#include "app/gui/views/controls/field_control.h"

#include <imgui.h>

#include <algorithm>
#include <cassert>
#include <string>
#include <type_traits>
#include <utility>

#include "app/gui/kit/test_hook.h"
#include "app/gui/views/controls/view_controls_widgets.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

using text::label;
using text::tr;

// A range a slider can point at; wider ones are typed (a position offset up to a million).
constexpr double kMaxSliderSpan = 100000;

// An enumeration whose values have names (to_string), so each can have a catalogue key.
template <typename T, typename = void>
struct named_enum : std::false_type {};
template <typename T>
struct named_enum<T, std::void_t<decltype(to_string(std::declval<T>()))>> : std::is_enum<T> {};

void help_if_any(const std::string& key) {
    const std::string help = key + ".help";
    if (text::active().has_own(help) || text::english().has_own(help)) help_marker(tr(help.c_str()));
}

bool flag_control(Session& session, bool AttentionConfig::*member, const std::string& key) {
    const Message refusal = refusal_of(session, [&](AttentionConfig& x) { x.*member = true; });
    return guarded_checkbox(label(key.c_str()), &(session.config.*member), refusal);
}

// 0 = "derived" rows show what it derives to (the slider cannot go to 0 itself).
bool whole_control(const ConfigField& field, int& value, int derived, const std::string& key) {
    const int lo = static_cast<int>(field.saved_range.lo), hi = static_cast<int>(field.saved_range.hi);
    if (hi - lo > kMaxSliderSpan) {
        int typed = value;
        if (!ImGui::InputInt(label(key.c_str()), &typed)) return false;
        typed = std::clamp(typed, lo, hi);
        std::swap(typed, value);
        return typed != value;
    }
    const bool automatic = field.has(kZeroIsAuto) && value == 0;
    const int low = field.has(kZeroIsAuto) ? std::max(lo, 1) : lo;
    int shown = automatic ? derived : value;
    const bool logarithmic = low >= 1 && hi >= 64 * low;
    const std::string auto_key = key + ".auto";
    bool changed = false;
    if (logarithmic) {
        const char* format = automatic && text::english().has_own(auto_key) ? tr(auto_key.c_str()) : "%d";
        changed = slider_int_aside(label(key.c_str()), &shown, low, hi, format,
                                   ImGuiSliderFlags_AlwaysClamp | ImGuiSliderFlags_Logarithmic);
    } else {
        changed = ImGui::SliderInt(label(key.c_str()), &shown, low, hi, "%d", ImGuiSliderFlags_AlwaysClamp);
    }
    if (changed) value = shown;
    return changed;
}

template <typename Real>
bool real_control(const ConfigField& field, Real& value, const std::string& key) {
    const Real lo = static_cast<Real>(field.saved_range.lo), hi = static_cast<Real>(field.saved_range.hi);
    const bool logarithmic = lo > 0 && hi >= 1000 * lo;
    const char* format = hi - lo <= 10 ? "%.2f" : "%.0f";
    const ImGuiDataType type = std::is_same_v<Real, float> ? ImGuiDataType_Float : ImGuiDataType_Double;
    Real shown = value;
    if (!ImGui::SliderScalar(label(key.c_str()), type, &shown, &lo, &hi, format,
                             ImGuiSliderFlags_AlwaysClamp | (logarithmic ? ImGuiSliderFlags_Logarithmic : 0)))
        return false;
    value = std::clamp(shown, lo, hi);  // a typed value (Ctrl+click) is kept in range too
    return true;
}

// One radio button per value; a value the core refuses for this configuration is greyed out.
template <typename Enum>
bool enum_control(Session& session, const ConfigField& field, Enum AttentionConfig::*member, const std::string& key) {
    AttentionConfig& c = session.config;
    bool changed = false;
    for (int i = static_cast<int>(field.saved_range.lo); i <= static_cast<int>(field.saved_range.hi); ++i) {
        const Enum option = static_cast<Enum>(i);
        const std::string name = key + "." + to_string(option);
        if (i > static_cast<int>(field.saved_range.lo)) flow_checkbox(tr(name.c_str()));
        const Message refusal = c.*member == option ? Message() : refusal_of(session, [&](AttentionConfig& x) { x.*member = option; });
        ImGui::BeginDisabled(!refusal.empty());
        if (ImGui::RadioButton(label(name.c_str()), c.*member == option) && c.*member != option) {
            c.*member = option;
            changed = true;
        }
        ImGui::EndDisabled();
        if (!refusal.empty()) reason_tooltip(text::render(refusal).c_str());
    }
    return changed;
}

}  // namespace

bool field_control(Session& session, const ConfigField& field) {
    const std::string key = std::string("controls.") + field.name;
    AttentionConfig& c = session.config;
    const bool changed = std::visit([&](auto member) -> bool {
        using T = std::decay_t<decltype(c.*member)>;
        if constexpr (std::is_same_v<T, bool>) return flag_control(session, member, key);
        else if constexpr (std::is_same_v<T, int>) {
            const FieldValue derived = field.resolved ? field.resolved(c) : FieldValue(int64_t{0});
            const int shown = std::holds_alternative<int64_t>(derived) ? static_cast<int>(std::get<int64_t>(derived)) : 0;
            return whole_control(field, c.*member, shown, key);
        } else if constexpr (std::is_floating_point_v<T>) return real_control(field, c.*member, key);
        else if constexpr (named_enum<T>::value) return enum_control(session, field, member, key);
        assert(false && "not a plain field: its control is drawn by hand");
        return false;
    }, field.member);
    note_item_for_tests(key);
    help_if_any(key);
    return changed;
}

bool field_controls(Session& session, std::initializer_list<const char*> names) {
    bool changed = false;
    for (const char* name : names) changed |= field_control(session, config_field(name));
    return changed;
}

}  // namespace attn::gui
