#include "app/gui/export/animation_export.h"

#include <algorithm>
#include <cctype>

#include "app/gui/kit/fonts_theme.h"

namespace attn::gui {

bool parse_animation_format(const std::string& name, media::AnimationFormat& format) {
    std::string lower = name;
    std::transform(lower.begin(), lower.end(), lower.begin(), [](unsigned char c) { return std::tolower(c); });
    if (lower == "gif") format = media::AnimationFormat::Gif;
    else if (lower == "mp4") format = media::AnimationFormat::Mp4;
    else return false;
    return true;
}

Status AnimationExport::start(const AppState& state, const AnimationRequest& request) {
    cancel();
    request_ = request;
    state_ = state;
    state_.ui.canvas.hovered = CellRef{};
    state_.jobs = Jobs{};  // the pictures show the lesson, not this export's progress
    frames_ = media::plan_frames(request.steps, request.timing);
    next_ = 0;
    renderer_ = std::make_unique<OffscreenRenderer>(request.width, request.height, static_cast<float>(request.scale),
                                                    state.settings.light_theme, request.type_scale);
    if (!renderer_->valid()) {
        const Message error = renderer_->error();
        renderer_.reset();
        return Status::failure(error);
    }
    pixel_width_ = renderer_->pixel_width();
    pixel_height_ = renderer_->pixel_height();
    auto writer = media::open_animation(request.format, request.path, pixel_width_, pixel_height_, request.timing.fps);
    if (!writer) {
        renderer_.reset();
        return Status::failure(writer.message());
    }
    writer_ = std::move(writer.value());
    cache_.reset(state_.results.model, canvas_palette(state_.settings.light_theme).masked);
    return ok_status();
}

Status AnimationExport::advance(std::chrono::milliseconds budget) {
    if (!writer_) return ok_status();
    const auto until = std::chrono::steady_clock::now() + budget;
    do {
        if (done()) break;
        const media::PlannedFrame& f = frames_[next_];
        state_.ui.playback.set_position(f.step, f.progress);
        render_state(*renderer_, state_, cache_, request_.layout);
        if (!cache_.error().empty()) return fail(Status::failure(cache_.error()));
        if (Status s = writer_->add_frame(renderer_->pixels().data(), f.seconds); !s) return fail(s);
        ++next_;
    } while (std::chrono::steady_clock::now() < until);
    if (!done()) return ok_status();
    const Status finished = writer_->finish();
    frames_in_file_ = writer_->frames_written();
    writer_.reset();
    renderer_.reset();
    return finished;
}

void AnimationExport::cancel() {
    writer_.reset();  // removes the temporary file (and stops ffmpeg)
    renderer_.reset();
    frames_.clear();
    next_ = 0;
}

}  // namespace attn::gui
