// What presenting adds to the window's UI state: the blanked screen, the speaker note
// overlay, the laser pointer and its trail, the pen and the drawing in progress, and the
// slide on screen as the presenter sees it (its place, its note, the next slide's title).
// The drawings themselves are the slide's (ui.lesson.marks.annotations).
#pragma once

#include <deque>
#include <optional>
#include <string>

#include "app/lesson/lesson.h"

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
    double started = 0;            // when the lesson was opened (the note's clock counts from it)
    bool pointer_shown() const { return pointer_on || pointer_held; }
};

// How long the pointer's trail lasts, in seconds.
inline constexpr double kPointerTrailSeconds = 0.35;

}  // namespace attn::gui
