// Fonts (DejaVu Sans found at run time, ImGui's default as fallback) and the dark and
// light themes, both scaled by the UI scale.
#pragma once

#include <cstdint>

#include "app/gui/display/colormap.h"

struct ImFont;
struct ImVec4;

namespace attn::gui {

struct Fonts {
    ImFont* small = nullptr;    // cell values, axis indices
    ImFont* regular = nullptr;  // everything else
    ImFont* large = nullptr;    // titles, presentation mode
    ImFont* code = nullptr;     // monospace: the code panel
};

// Rebuilds the current context's font atlas at `scale` (call between frames; the
// renderer backend must re-create its font texture afterwards).
Fonts load_fonts(float scale);
// Colours and sizes of the current context's style.
void apply_theme(bool light, float scale);

// Text colours of the panels, chosen per theme so every one reaches WCAG AA (4.5:1)
// against the window background (checked by tests/gui/test_gui_theme.cpp).
struct ThemeColors {
    Rgb window_bg;    // ImGuiCol_WindowBg
    Rgb text, dim;    // ImGuiCol_Text, ImGuiCol_TextDisabled
    Rgb formula;      // the step's formula line
    Rgb good;         // "a view: no bytes copied"
    Rgb warning;      // invalid settings, copies, fully masked rows
    Rgb error;        // compute failures
    Rgb busy;         // "computing..."
    Rgb chip_bg;      // the current step's chip in the timeline (white text on it)
};
ThemeColors theme_colors(bool light);
ImVec4 to_imvec4(Rgb c, float alpha = 1.0f);

// Colours the canvas draws with (ImGui IM_COL32 layout).
struct CanvasPalette {
    uint32_t background, empty_cell, text, dim_text, frame, highlight, highlight_fill;
    Rgb masked;  // -inf cells
    Rgb background_rgb;  // `background` as a colour, for contrast decisions
    uint32_t notice;     // "(showing the last valid settings)" on the canvas
};
CanvasPalette canvas_palette(bool light);

}  // namespace attn::gui
