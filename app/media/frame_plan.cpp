#include "app/media/frame_plan.h"

#include <algorithm>
#include <cmath>

namespace attn::media {

std::vector<PlannedFrame> plan_frames(const std::vector<int>& steps, const AnimationTiming& timing) {
    std::vector<PlannedFrame> frames;
    if (steps.empty() || timing.fps < 1 || !(timing.speed > 0.0f)) return frames;
    const double frame = 1.0 / timing.fps;
    const double dwell = timing.dwell_seconds / timing.speed;
    // Frames per step's animation: its duration at this rate, at least one.
    const int moving = std::max(1, static_cast<int>(std::lround(timing.step_seconds / timing.speed * timing.fps)));
    for (size_t i = 0; i < steps.size(); ++i) {
        const int step = steps[i];
        if (step > 0) {
            for (int k = 0; k < moving; ++k)
                frames.push_back({step, static_cast<float>(k) / static_cast<float>(moving), frame});
            if (i == 0) frames.front().seconds += dwell;  // the source, held before it moves
        }
        frames.push_back({step, 1.0f, dwell});
    }
    return frames;
}

double total_seconds(const std::vector<PlannedFrame>& frames) {
    double total = 0;
    for (const PlannedFrame& f : frames) total += f.seconds;
    return total;
}

}  // namespace attn::media
