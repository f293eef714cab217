// What presenting adds to the window's UI state: the blanked screen, the speaker note
// overlay, the laser pointer and its trail, the pen and the drawing in progress, and the
// slide on screen as the presenter sees it (its place, its note, the next slide's title).
// The drawings themselves are the slide's (ui.lesson.marks.annotations).
#pragma once

#include <algorithm>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "app/lesson/lesson.h"
#include "core/message.h"

namespace attn::gui {

// One place the laser pointer was, and when (seconds, the window's clock).
struct PointerTrace {
    float x = 0, y = 0;
    double time = 0;
};

struct PresentUi {
    bool blank = false;            // B: the screen is black until a key is pressed
    bool note_shown = false;       // N: the speaker note over the canvas (one screen)
    bool pointer_on = false;       // Shift+L or View > Laser pointer: the pointer stays on
    bool pointer_held = false;     // L is held this frame
    std::deque<PointerTrace> trail;  // newest last, kept for kPointerTrailSeconds
    PointerTrace last;             // where the pointer was last seen (a still pointer leaves no trail)
    bool pen = false;              // D: dragging on the canvas draws
    int pen_colour = 0;            // lesson::kPenColours by position (keys 1-4)
    std::optional<lesson::Annotation> drawing;  // the stroke under the mouse, not kept yet
    bool drawings_changed = false; // the screen's drawings changed this frame (kept in the slide)
    // The lesson as the presenter sees it (0 slides: no lesson is presented).
    int slide = 0, slides = 0;     // the slide on screen, by position from 0, of how many
    std::string slide_title, note, next_title;
    bool animation_played = false; // Right / Page Down has played this slide's animation
    bool step_animates = true;     // the step on screen has an animation to play (the input step has none)
    double started = 0;            // when the lesson was opened or T pressed (the note's clock counts from it)
    int minutes = 0;               // the lesson's length ("minutes"); the note counts down to it (0: none)
    std::string typed_slide;       // digits typed towards "number, Enter" (lesson_keys.h)
    bool grid = false;             // G: every slide's picture in a grid, to pick one
    int grid_choice = 0;           // the slide framed in the grid
    Message notice;                // said over the picture for a few seconds (no status line here)
    double notice_time = 0;
    // C: the drawings it wiped, until Ctrl+Z brings them back or the slide changes.
    std::vector<lesson::Annotation> wiped;
    bool pointer_shown() const { return pointer_on || pointer_held; }
};

// Columns of the slide grid (G) for `count` slides: about 4:3 cells filling a 16:10 screen,
// never more than there are slides (one slide took two columns and sat in the left one).
inline int slide_grid_columns(int count) {
    int columns = 1;
    while (columns * columns * 3 < count * 4) ++columns;
    return std::min(columns, std::max(count, 1));
}

// Where the slide grid's pictures go: `columns` of them (slide_grid_columns), each `cell_w`
// x `cell_h` with a caption line `caption_h` under it, `gap` apart, the block centred in the
// screen below `top`. A picture is as large as the screen allows but at most `largest_w`
// wide: one slide or two would otherwise be stretched to a blurred poster of the whole
// screen (a 320 px picture drawn 990 px wide at 1024x768), the grid's block sitting at the
// top with the rest of the screen empty.
struct SlideGridPlace {
    int columns = 1;
    float cell_w = 0, cell_h = 0;  // one picture
    float left = 0, top = 0;       // the first picture's top-left corner
};
inline SlideGridPlace slide_grid_place(int count, float screen_w, float screen_h, float top, float gap, float caption_h,
                                       float aspect, float largest_w) {
    SlideGridPlace out;
    out.columns = slide_grid_columns(count);
    const int rows = (std::max(count, 1) + out.columns - 1) / out.columns;
    const float by_width = (screen_w - gap * static_cast<float>(out.columns + 1)) / static_cast<float>(out.columns);
    const float by_height = ((screen_h - top - gap * static_cast<float>(rows)) / static_cast<float>(rows) - caption_h) * aspect;
    out.cell_w = std::max(gap * 4.0f, std::min({by_width, by_height, largest_w}));
    out.cell_h = out.cell_w / aspect;
    const float block_w = out.cell_w * static_cast<float>(out.columns) + gap * static_cast<float>(out.columns - 1);
    const float block_h = (out.cell_h + caption_h) * static_cast<float>(rows) + gap * static_cast<float>(rows - 1);
    out.left = (screen_w - block_w) * 0.5f;
    out.top = top + std::max(0.0f, (screen_h - top - block_h) * 0.5f);
    return out;
}

// How long the pointer's trail lasts, in seconds.
inline constexpr double kPointerTrailSeconds = 0.35;

}  // namespace attn::gui
