// Animated exports (File > Export animation, `attnviz snapshot --animate`): the step
// animations drawn off-screen frame by frame, as Play shows them (app/media/frame_plan.h),
// into a GIF or an MP4 (app/media/animation_writer.h). The window advances it a few frames
// per displayed frame, with a progress bar and Cancel; the command line runs it through.
#pragma once

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "app/gui/state/app_state.h"
#include "app/gui/gl/heatmap_cache.h"
#include "app/gui/gl/offscreen.h"
#include "app/gui/export/snapshot.h"
#include "app/media/animation_writer.h"
#include "app/media/frame_plan.h"

namespace attn::gui {

// What to export: the file, its format, the steps (trace indices, in order), the timing
// and the picture (layout, logical size, resolution multiplier).
struct AnimationRequest {
    media::AnimationFormat format = media::AnimationFormat::Gif;
    std::string path;
    std::vector<int> steps;
    media::AnimationTiming timing;
    SnapshotLayout layout = SnapshotLayout::Slide;
    int width = 1280, height = 720;
    int scale = 1;
    float type_scale = 1.0f;  // presentation mode's larger type
};

// The request `attnviz snapshot --animate` options ask for (all but the steps), or why
// they are refused (a message for stderr; "" when they are not).
struct SnapshotOptions;
std::string animation_request_of(const SnapshotOptions& options, AnimationRequest& request);

// "gif" or "mp4" (any case) as a format; false for anything else.
bool parse_animation_format(const std::string& name, media::AnimationFormat& format);

class AnimationExport {
public:
    // Opens the renderer and the file (under its temporary name). Needs a current GL
    // context. A message when the size, rate or file is refused or ffmpeg is missing.
    Status start(const AppState& state, const AnimationRequest& request);
    // Draws and writes frames for about `budget` (at least one frame); the file is
    // complete and renamed into place when done() turns true.
    Status advance(std::chrono::milliseconds budget);
    bool active() const { return writer_ != nullptr; }
    bool done() const { return next_ >= frames_.size(); }
    float fraction() const { return frames_.empty() ? 1.0f : static_cast<float>(next_) / frames_.size(); }
    // Stops: the temporary file is removed, the target never touched.
    void cancel();

    const std::string& path() const { return request_.path; }
    size_t frame_count() const { return frames_.size(); }  // pictures drawn
    int frames_in_file() const { return frames_in_file_; }
    double seconds() const { return media::total_seconds(frames_); }
    int pixel_width() const { return pixel_width_; }
    int pixel_height() const { return pixel_height_; }

private:
    Status fail(Status failure) {
        cancel();
        return failure;
    }
    AnimationRequest request_;
    AppState state_;  // a copy: the window's own position is not disturbed
    std::vector<media::PlannedFrame> frames_;
    size_t next_ = 0;
    int pixel_width_ = 0, pixel_height_ = 0;
    int frames_in_file_ = 0;
    std::unique_ptr<OffscreenRenderer> renderer_;
    std::unique_ptr<media::AnimationWriter> writer_;
    HeatmapCache cache_;
};

}  // namespace attn::gui
