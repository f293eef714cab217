// What a presenter lays over the window (never over pictures): the pen's palette while the
// pen is on, the speaker note with the next slide's title and a clock (N, one screen), the
// laser pointer with its fading trail, and the blank screen (B), which covers everything.
#pragma once

#include <imgui.h>

#include "app/gui/state/actions.h"
#include "app/gui/state/ui_state.h"

namespace attn::gui {

// Over the whole screen; `now` is the window's clock (seconds). Picking a colour in the
// palette writes ui.present.pen_colour. The laser is drawn in kPenRgb[laser_colour]
// (settings: View > Laser colour).
Actions draw_presenter(UiState& ui, int laser_colour, double now);

// The speaker note's words: the clock, the countdown to the lesson's minutes, the note, the
// next slide (the note overlay and the second screen's window draw the same).
void draw_note_text(const PresentUi& present, double now);
// "12:31 left of 45 min", "0:45 over the 45 min" (T restarts it); "" when the lesson gives no minutes.
std::string lesson_countdown(const PresentUi& present, double now);

// The pen's palette's size in the current font: presentation keeps this much room at the
// title strip's right end while the pen is on.
ImVec2 pen_palette_size();

// The pointer's dot radius on a screen w x h: large enough to find on a projector.
float pointer_radius(float w, float h);
// The laser's dot of radius r at `at` in kPenRgb[colour], ringed in black and white.
void draw_laser_dot(ImDrawList* dl, ImVec2 at, float r, int colour);

}  // namespace attn::gui
