#include "app/gui/display/animation.h"

#include <algorithm>
#include <cmath>
#include <cstdint>

namespace attn::gui {

void Playback::set_step_count(int count) {
    count_ = std::max(0, count);
    const int last = std::max(0, count_ - 1);
    step_ = std::clamp(step_, 0, last);
    target_step_ = std::clamp(target_step_, 0, last);
}

bool Playback::animating() const {
    return playing_ || step_ != target_step_ || progress_ != target_progress_;
}

void Playback::next() {
    if (count_ == 0) return;
    dwell_ = 0.0f;
    // A press while something moves lands on where it was heading first, so presses
    // never pile up into a queue that keeps running after the keys stop.
    const bool moving = step_ != target_step_ || progress_ != target_progress_;
    if (moving) {
        step_ = target_step_;
        progress_ = target_progress_;
    }
    if (!moving && progress_ < 1.0f) {
        target_progress_ = 1.0f;  // at rest mid-step (scrubbed): finish this step first
        return;
    }
    if (step_ + 1 < count_) {
        step_ += 1;
        progress_ = 0.0f;
    } else {
        progress_ = 1.0f;
    }
    target_step_ = step_;
    target_progress_ = 1.0f;
}

void Playback::previous() {
    if (count_ == 0) return;
    playing_ = false;
    if (step_ == target_step_ && target_progress_ == 1.0f && progress_ < 1.0f) {
        // Mid-animation forwards: reverse it (the first step has nothing before it to
        // reverse to: it finishes instead, so a clicker's "back" never blanks the screen).
        target_progress_ = step_ == 0 ? 1.0f : 0.0f;
        target_step_ = step_;
        if (step_ > 0) {
            target_step_ = step_ - 1;
            target_progress_ = 1.0f;
        }
        return;
    }
    // Already moving backwards: land where it was heading, then go one further.
    if (step_ != target_step_ || progress_ != target_progress_) {
        step_ = target_step_;
        progress_ = target_progress_;
    }
    // Back from the first step stays on it, finished: its progress 0 would show the
    // source of a step that has none, an empty canvas.
    target_step_ = std::max(step_ - 1, 0);
    target_progress_ = 1.0f;
}

void Playback::jump_to(int step) {
    if (count_ == 0) return;
    step_ = target_step_ = std::clamp(step, 0, count_ - 1);
    progress_ = 0.0f;
    target_progress_ = 1.0f;
    dwell_ = 0.0f;
}

void Playback::set_position(int step, float progress) {
    if (count_ == 0) return;
    step_ = target_step_ = std::clamp(step, 0, count_ - 1);
    progress_ = target_progress_ = std::clamp(progress, 0.0f, 1.0f);
    playing_ = false;
}

void Playback::play() {
    if (count_ == 0) return;
    if (step_ == count_ - 1 && progress_ >= 1.0f) jump_to(0);  // at the end: start over
    playing_ = true;
    target_progress_ = 1.0f;
    if (target_step_ < step_) target_step_ = step_;
    dwell_ = 0.0f;
}

void Playback::pause() { playing_ = false; }

void Playback::toggle_play() {
    if (playing_) {
        pause();
    } else {
        play();
    }
}

void Playback::set_speed(float speed) { speed_ = std::clamp(speed, 0.1f, 8.0f); }

void Playback::update(float dt) {
    if (count_ == 0 || dt <= 0.0f) return;
    float budget = dt * speed_ / kStepSeconds;  // progress units this frame
    // Long jumps go faster so a queue of key presses never lags far behind.
    const int distance = std::abs(target_step_ - step_);
    if (distance > 1) budget *= static_cast<float>(distance);
    while (budget > 0.0f) {
        if (step_ < target_step_) {
            const float room = 1.0f - progress_;
            if (budget < room) {
                progress_ += budget;
                budget = 0.0f;
            } else {
                budget -= room;
                step_ += 1;
                progress_ = 0.0f;
            }
        } else if (step_ > target_step_) {
            if (budget < progress_) {
                progress_ -= budget;
                budget = 0.0f;
            } else {
                budget -= progress_;
                step_ -= 1;
                progress_ = 1.0f;
            }
        } else if (progress_ < target_progress_) {
            progress_ = std::min(target_progress_, progress_ + budget);
            budget = 0.0f;
        } else if (progress_ > target_progress_) {
            progress_ = std::max(target_progress_, progress_ - budget);
            budget = 0.0f;
        } else {
            break;
        }
    }
    if (playing_ && step_ == target_step_ && progress_ >= 1.0f) {
        if (step_ + 1 >= count_) {
            playing_ = false;
            return;
        }
        dwell_ += dt * speed_;
        if (dwell_ >= kDwellSeconds) {
            dwell_ = 0.0f;
            target_step_ = step_ + 1;
            step_ += 1;
            progress_ = 0.0f;
        }
    }
}

float ease(float t) {
    t = std::clamp(t, 0.0f, 1.0f);
    return t * t * (3.0f - 2.0f * t);
}

StepMotion motion_for(StepKind kind) {
    StepMotion m;
    switch (kind) {
        case StepKind::Input:
        case StepKind::RopeTable: m.fill = StepMotion::Fill::Fade; break;
        case StepKind::Projection:
        case StepKind::Scores:
        case StepKind::WeightedSum:
            m.show_sources = true;
            m.fill = StepMotion::Fill::Raster;
            break;
        case StepKind::Scale:
        case StepKind::Mask:
        case StepKind::Dropout:
        case StepKind::Rotation:   // option steps: a plain fade until the window animates them
        case StepKind::RepeatKv:
        case StepKind::CacheAppend:
        case StepKind::HeadMean:
        case StepKind::Lookup:  // a trained model's steps (core/model/)
        case StepKind::Add:
        case StepKind::Norm:
        case StepKind::Prediction:
            m.show_sources = true;
            m.fill = StepMotion::Fill::Fade;
            break;
        case StepKind::Softmax:
            m.show_sources = true;
            m.fill = StepMotion::Fill::Rows;
            break;
        case StepKind::Slice:
        case StepKind::View:
        case StepKind::Transpose:
        case StepKind::Concat:
            m.morph_layout = true;
            m.fill = StepMotion::Fill::None;
            break;
    }
    return m;
}

RasterState raster_state(float progress, int rows, int cols) {
    RasterState s;
    if (rows <= 0 || cols <= 0) return s;
    const double total = static_cast<double>(rows) * cols;
    const auto done = static_cast<int64_t>(std::floor(std::clamp(progress, 0.0f, 1.0f) * total));
    s.full_rows = static_cast<int>(done / cols);
    s.partial_cols = static_cast<int>(done % cols);
    if (s.full_rows >= rows) {
        s.full_rows = rows;
        s.partial_cols = 0;
    }
    return s;
}

}  // namespace attn::gui
