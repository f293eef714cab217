// The frames of an exported animation, as the window's Play shows them: each step's
// animation from its source (progress 0) to the finished step (progress 1) at the
// playback speed, one frame per displayed frame, then the pause Play makes between steps.
#pragma once

#include <vector>

namespace attn::media {

// One frame to draw: a step of the trace (0-based), the moment inside its animation, and
// how long it stays on screen.
struct PlannedFrame {
    int step = 0;
    float progress = 1.0f;
    double seconds = 0;
};

// How the animation moves: seconds per step's animation and pause after it, at speed 1
// (the window's Playback::kStepSeconds and kDwellSeconds), divided by `speed`.
struct AnimationTiming {
    int fps = 30;
    float speed = 1.0f;
    float step_seconds = 1.6f;
    float dwell_seconds = 0.9f;
};

// `steps`: trace indices in order. The first frame (the first step's source, or the
// first step finished when it is the trace's first step, which has no source) is held for
// one pause; every step except the trace's first is animated over step_seconds / speed;
// every step ends held for one pause. Empty when `steps` is.
std::vector<PlannedFrame> plan_frames(const std::vector<int>& steps, const AnimationTiming& timing);

// The whole animation's length in seconds.
double total_seconds(const std::vector<PlannedFrame>& frames);

}  // namespace attn::media
