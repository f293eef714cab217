// Fonts (DejaVu Sans found at run time, ImGui's default as fallback) and the dark and
// light themes, both scaled by the UI scale.
#pragma once

#include <cstdint>

#include "app/gui/colormap.h"

struct ImFont;

namespace attn::gui {

struct Fonts {
    ImFont* small = nullptr;    // cell values, axis indices
    ImFont* regular = nullptr;  // everything else
    ImFont* large = nullptr;    // titles, presentation mode
};

// Rebuilds the current context's font atlas at `scale` (call between frames; the
// renderer backend must re-create its font texture afterwards).
Fonts load_fonts(float scale);
// Colours and sizes of the current context's style.
void apply_theme(bool light, float scale);

// Colours the canvas draws with (ImGui IM_COL32 layout).
struct CanvasPalette {
    uint32_t background, empty_cell, text, dim_text, frame, highlight, highlight_fill;
    Rgb masked;  // -inf cells
};
CanvasPalette canvas_palette(bool light);

}  // namespace attn::gui
