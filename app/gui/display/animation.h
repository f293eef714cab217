// Animation timing: where the presentation is (step + progress inside the step),
// where it is heading, and how each kind of step moves. Pure logic, no ImGui.
//
// progress 0 shows the step's source, progress 1 the finished step. Moving forward
// plays a step's animation, moving backward plays it in reverse; a new command
// takes over at once from wherever the animation is (interruptible).
#pragma once

#include "core/trace.h"

namespace attn::gui {

class Playback {
public:
    // Number of steps in the trace; clamps the position into range.
    void set_step_count(int count);
    int step_count() const { return count_; }

    int step() const { return step_; }
    float progress() const { return progress_; }
    bool playing() const { return playing_; }
    bool animating() const;  // true while something moves (the window should keep redrawing)

    // One step on (animated) / back (animated in reverse).
    void next();
    void previous();
    // Jump to a step and play its animation from the start (timeline click, Home/End).
    void jump_to(int step);
    // Place exactly, no animation (scrub bar, snapshot): step and progress in [0, 1].
    void set_position(int step, float progress);
    void play();   // from the current step on, one step after the other
    void pause();
    void toggle_play();

    // Seconds one step's animation takes at speed 1.
    static constexpr float kStepSeconds = 1.6f;
    // Pause between steps while playing, at speed 1.
    static constexpr float kDwellSeconds = 0.9f;
    void set_speed(float speed);  // 0.1 .. 8, multiplies the rate
    float speed() const { return speed_; }

    // Advances time by `dt` seconds.
    void update(float dt);

private:
    int count_ = 0;
    int step_ = 0;
    float progress_ = 1.0f;
    int target_step_ = 0;
    float target_progress_ = 1.0f;
    bool playing_ = false;
    float dwell_ = 0.0f;
    float speed_ = 1.0f;
};

// Slow in, slow out (smoothstep), for things that travel.
float ease(float t);

// How a kind of step is animated.
struct StepMotion {
    bool morph_layout = false;  // panels travel from the source's layout (view, transpose, concat)
    bool show_sources = false;  // the source tensors are drawn beside the result
    enum class Fill {
        Fade,    // the result fades in over the source
        Raster,  // cells fill in reading order, one at a time (products)
        Rows,    // whole rows change, top to bottom (softmax)
        None,    // values are unchanged (views)
    } fill = Fill::Fade;
};
StepMotion motion_for(StepKind kind);

// Raster fill at `progress` of a rows x cols matrix: rows above `full_rows` are done,
// row `full_rows` is done up to column `partial_cols` (exclusive).
struct RasterState {
    int full_rows = 0;
    int partial_cols = 0;
};
RasterState raster_state(float progress, int rows, int cols);

}  // namespace attn::gui
