// The step's title strip above the canvas in presentation mode, in slides and in
// canvas-only exports: "5 / 17   Scores: Q K^T per head" in the large font, with the
// formula at the right when both fit on one line. A lesson's slide (presented, or drawn
// by `snapshot --lesson`) shows its own title first. A title too wide for the screen
// shrinks to 70% and then wraps onto more lines: it is never cut.
#pragma once

#include <imgui.h>

#include <string>
#include <vector>

#include "app/gui/state/app_state.h"
#include "app/gui/views/frame_context.h"
#include "app/text/step_text.h"

namespace attn::gui {

struct TitleStrip {
    text::StepText words;          // the step's title, formula and explanation
    std::string title;             // "5 / 17   <title>"; empty before the first trace
    std::vector<std::string> title_lines;  // the title as drawn: one line, or wrapped when too wide
    bool formula_beside = false;   // the formula fits at the right of the title
    bool formula_below = false;    // else it takes a second line (only when asked for)
    float height = 0;              // the strip's height in pixels
    float title_y = 0;             // the title's top inside the strip
    float line_h = 0;              // the height of one of its lines
    float title_scale = 1;         // the title down to 80% before the formula takes a line, 70% before it wraps
    float text_scale = 1;          // presentation: 1 / UI scale, so the strip is as high as at UI scale 1
    float reserved_w = 0;          // kept free at the right end (the pen's palette)
};

// What a strip of width `w` shows on a screen `h` high (it takes at most half of it). `second_line` lets a formula that does not fit beside
// the title take a line of its own (presentation); without it the formula is left out
// and the strip is kCanvasTitleEm large-font heights, as exports size their pictures.
// `reserved` is kept free at the strip's right end (w x h: the pen's palette while drawing).
TitleStrip measure_title_strip(const AppState& state, const FrameContext& ctx, float w, float h, bool second_line,
                               ImVec2 reserved = ImVec2(0, 0));
// Draws `strip` in its own window at the top of the screen.
void draw_title_strip(const TitleStrip& strip, const FrameContext& ctx, bool light_theme, float w);

}  // namespace attn::gui
