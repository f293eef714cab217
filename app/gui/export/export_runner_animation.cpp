// ExportRunner's animated exports (File > Export animation): started from the dialog,
// advanced a few frames after each window frame, cancelled from the status line.
#include <chrono>
#include <filesystem>

#include "app/gui/display/animation.h"
#include "app/gui/export/download.h"
#include "app/gui/export/export_runner.h"
#include "app/text/text_template.h"

namespace attn::gui {

namespace {

// Drawing time per window frame: the window stays responsive while the export runs.
constexpr std::chrono::milliseconds kFrameBudget{25};

}  // namespace

void ExportRunner::start_animation(AppState& state, const ExportRequest& request, int win_w, int win_h, double now) {
    AnimationRequest r;
    r.format = request.mp4 ? media::AnimationFormat::Mp4 : media::AnimationFormat::Gif;
    if (request.mp4 && media::find_ffmpeg().empty()) {
        state.jobs.dialog.error = media::mp4_unavailable();
        return;
    }
    r.path = request.path;
    if (request.all_steps) {
        for (int i = 0; i < static_cast<int>(state.results.trace->steps.size()); ++i) r.steps.push_back(i);
    } else {
        r.steps.push_back(state.ui.playback.step());
    }
    r.timing = media::AnimationTiming{media::default_fps(r.format), state.ui.playback.speed(), Playback::kStepSeconds,
                                      Playback::kDwellSeconds};
    r.layout = request.canvas_only ? SnapshotLayout::CanvasOnly : SnapshotLayout::FullWindow;
    export_image_size(state, request.canvas_only, win_w, win_h, r.width, r.height);
    r.scale = request.scale;
    state.jobs.export_progress = ExportProgress{true, 0, static_cast<int>(media::plan_frames(r.steps, r.timing).size()),
                                                request.path, request.scale, request.canvas_only, true};
    pending_animation_ = std::move(r);
    // Usually every step is drawn already: start now, so a refused file is said in the dialog.
    continue_animation(state, now);
    if (!state.jobs.export_progress.active && !state.jobs.dialog.error.empty()) return;
    state.jobs.dialog.close = true;
    state.jobs.dialog.last_folder = std::filesystem::path(request.path).parent_path().string();
}

void ExportRunner::continue_animation(AppState& state, double now) {
    ExportProgress& p = state.jobs.export_progress;
    const auto stop = [&](Message message) {
        p.active = false;
        animation_.reset();
        pending_animation_.reset();
        set_status(state.ui, std::move(message), now);
    };
    if (pending_animation_) {
        if (!state.results.model || !state.results.model->complete()) return;  // frames go on meanwhile
        animation_ = std::make_unique<AnimationExport>();
        const Status started = animation_->start(state, *pending_animation_);
        pending_animation_.reset();
        if (!started) {
            state.jobs.dialog.error = started.message();  // shown if the dialog is still open
            return stop(started.message());
        }
        return;  // the first frame is drawn after the next window frame
    }
    if (!animation_) return;
    const Status s = animation_->advance(kFrameBudget);
    p.next = static_cast<int>(animation_->fraction() * static_cast<float>(p.total));
    if (!s) return stop(s.message());
    if (animation_->active()) return;
    // The browser's download of the finished file (download.h), as for a picture.
    Message done("export.wrote_animation", {{"path", animation_->path()},
                                            {"frames", animation_->frames_in_file()},
                                            {"seconds", text::fixed(animation_->seconds(), 1)}});
    stop(after_download(animation_->path(), std::move(done)));
}

void ExportRunner::cancel(AppState& state, double now) {
    ExportProgress& p = state.jobs.export_progress;
    if (!p.active || !p.animation) return;
    if (animation_) animation_->cancel();
    animation_.reset();
    pending_animation_.reset();
    p.active = false;
    set_status(state.ui, Message("export.animation_cancelled", {{"path", p.folder}}), now);
}

}  // namespace attn::gui
