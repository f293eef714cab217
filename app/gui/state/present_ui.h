// What presenting adds to the window's UI state: the blanked screen, the speaker note
// overlay, the laser pointer and its trail, the pen and the drawing in progress, and the
// slide on screen as the presenter sees it (its place, its note, the next slide's title).
// The drawings themselves are the slide's (ui.lesson.marks.annotations).
#pragma once

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

// Columns of the slide grid (G) for `count` slides: about 4:3 cells filling a 16:10 screen.
inline int slide_grid_columns(int count) {
    int columns = 1;
    while (columns * columns * 3 < count * 4) ++columns;
    return columns;
}

// How long the pointer's trail lasts, in seconds.
inline constexpr double kPointerTrailSeconds = 0.35;

}  // namespace attn::gui
