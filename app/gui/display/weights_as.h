// View > Weights as (heatmap, lines or both): the choices and their names, declared once.
// Header-only, so the settings (and their fuzz harness, which links no display code) can
// check a saved name without the lines' geometry.
#pragma once

#include <cstdint>
#include <optional>
#include <string_view>

namespace attn::gui {

// View > Weights as: how a weight step is drawn (kept in the settings by name).
enum class WeightsAs : uint8_t { Heatmap, Lines, Both };
// One row per choice: its settings / command-line name and its menu key.
struct WeightsAsRow {
    WeightsAs value;
    const char* name;  // "heatmap": the settings file and `snapshot --view`
    const char* key;   // its words in the catalogue
};
inline constexpr WeightsAsRow kWeightsAsRows[] = {
    {WeightsAs::Heatmap, "heatmap", "menu.view.weights_as.heatmap"},
    {WeightsAs::Lines, "lines", "menu.view.weights_as.lines"},
    {WeightsAs::Both, "both", "menu.view.weights_as.both"},
};
// The choice a name stands for; nullopt for any other text.
inline std::optional<WeightsAs> parse_weights_as(std::string_view name) {
    for (const WeightsAsRow& row : kWeightsAsRows)
        if (name == row.name) return row.value;
    return std::nullopt;
}
// "heatmap", "lines" or "both".
inline const char* weights_as_name(WeightsAs value) {
    for (const WeightsAsRow& row : kWeightsAsRows)
        if (row.value == value) return row.name;
    return kWeightsAsRows[0].name;
}

}  // namespace attn::gui
