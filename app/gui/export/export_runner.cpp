#include "app/gui/export/export_runner.h"

#include <algorithm>
#include <filesystem>

#include "app/gui/export/download.h"
#include "app/gui/state/export_path.h"
#include "app/gui/views/frame.h"
#include "app/gui/export/snapshot.h"
#include "app/io/torch_export.h"

namespace attn::gui {

namespace {

TokenLabels labels_of(const AppState& state) { return TokenLabels{state.results.query_tokens, state.results.key_tokens}; }

SnapshotLayout layout_of(bool canvas_only) { return canvas_only ? SnapshotLayout::CanvasOnly : SnapshotLayout::FullWindow; }

}  // namespace

void export_image_size(const AppState& state, bool canvas_only, int win_w, int win_h, int& width, int& height) {
    width = std::max(16, win_w);
    height = std::max(16, win_h);
    if (!canvas_only || state.ui.canvas.shown_w < 16.0f || state.ui.canvas.shown_h < 16.0f) return;
    // The large font is 26 px at scale 1 (fonts_theme.cpp); the title strip is kCanvasTitleEm of it.
    width = static_cast<int>(state.ui.canvas.shown_w);
    height = static_cast<int>(state.ui.canvas.shown_h + 26.0f * kCanvasTitleEm);
}

void ExportRunner::start(AppState& state, const ExportRequest& request, int win_w, int win_h, double now) {
    if (!state.results.trace) return;
    const bool folder = request.kind == ExportKind::AllStepsPng || request.kind == ExportKind::TensorsDir ||
                        request.kind == ExportKind::TorchDir;
    const auto finish = [&](const Status& s, Message done) {
        if (s.ok()) {
            state.jobs.dialog.close = true;
            state.jobs.dialog.last_folder = std::filesystem::path(request.path).parent_path().string();
            set_status(state.ui, after_download(request.path, std::move(done)), now);  // the browser's download (download.h)
        } else {
            state.jobs.dialog.error = s.message();
        }
    };
    // What the PyTorch script could not reproduce is said before any folder is made.
    if (request.kind == ExportKind::TorchDir)
        if (Message refusal = io::torch_export_refusal(*state.results.trace); !refusal.empty()) {
            state.jobs.dialog.error = std::move(refusal);
            return;
        }
    const Message refused = prepare_export_target(request.path, folder ? ExportTarget::Folder : ExportTarget::File,
                                                      request.replace, request.create_folder);
    if (!refused.empty()) {
        state.jobs.dialog.error = refused;
        return;
    }
    const Step& step = state.results.trace->steps[static_cast<size_t>(state.ui.playback.step())];
    switch (request.kind) {
        case ExportKind::StepCsv:
            finish(write_step_csv(step, request.path, labels_of(state)), Message("export.wrote", {{"path", request.path}}));
            return;
        case ExportKind::TensorsDir:
            finish(write_trace_tensors(*state.results.trace, request.path, labels_of(state)),
                   Message("export.wrote_tensors", {{"folder", request.path}}));
            return;
        case ExportKind::TorchDir:
            finish(io::write_torch_export(*state.results.trace, request.path), Message("export.wrote_torch", {{"folder", request.path}}));
            return;
        case ExportKind::SnapshotPng: {
            int w = 0, h = 0;
            export_image_size(state, request.canvas_only, win_w, win_h, w, h);
            OffscreenRenderer r(w, h, static_cast<float>(request.scale), state.settings.light_theme);
            Status s = ok_status();
            if (!r.valid()) {
                s = Status::failure(r.error());
            } else {
                cache_.reset(state.results.model, canvas_palette(state.settings.light_theme).masked);
                render_state(r, state, cache_, layout_of(request.canvas_only), now);
                s = write_png(request.path, r.pixel_width(), r.pixel_height(), r.pixels());
            }
            finish(s, Message("export.wrote_png", {{"path", request.path}, {"width", r.pixel_width()}, {"height", r.pixel_height()}}));
            return;
        }
        case ExportKind::Animation:
            start_animation(state, request, win_w, win_h, now);
            return;
        case ExportKind::AllStepsPng: {
            int w = 0, h = 0;
            export_image_size(state, request.canvas_only, win_w, win_h, w, h);
            renderer_ = std::make_unique<OffscreenRenderer>(w, h, static_cast<float>(request.scale), state.settings.light_theme);
            if (!renderer_->valid()) {
                state.jobs.dialog.error = renderer_->error();
                renderer_.reset();
                return;
            }
            cache_.reset(state.results.model, canvas_palette(state.settings.light_theme).masked);
            pool_ = std::make_unique<PngEncoderPool>(PngEncoderPool::beside_frame_loop());
            state.jobs.export_progress = ExportProgress{true, 0, static_cast<int>(state.results.trace->steps.size()), request.path,
                                                   request.scale, request.canvas_only};
            state.jobs.dialog.close = true;
            state.jobs.dialog.last_folder = std::filesystem::path(request.path).parent_path().string();
            return;
        }
    }
}

void ExportRunner::continue_all(AppState& state, double now) {
    ExportProgress& p = state.jobs.export_progress;
    if (p.active && p.animation) return continue_animation(state, now);
    if (!p.active || !renderer_) return;
    if (p.next < p.total) {
        // Every step needs its pixels: wait (frames go on) until the worker has built them.
        if (!state.results.model || !state.results.model->complete()) return;
        if (cache_.model() != state.results.model) cache_.reset(state.results.model, canvas_palette(state.settings.light_theme).masked);
        if (!pool_->has_room()) return;  // the encoders are behind: the frame loop never waits for them
        AppState copy = state;  // the window's own position is not disturbed
        copy.jobs.export_progress.active = false;  // the pictures show the window, not this export
        render_steps_to_pngs(*renderer_, copy, cache_, layout_of(p.canvas_only), {p.next}, 1.0f, p.folder, *pool_, now);
        ++p.next;
        return;
    }
    if (!pool_->idle()) return;  // still encoding: look again next frame
    const Status s = pool_->finish();
    Message done("export.wrote_all", {{"count", p.total}, {"folder", p.folder}});
    set_status(state.ui, s.ok() ? after_download(p.folder, std::move(done)) : s.message(), now);  // the browser's download (download.h)
    p.active = false;
    renderer_.reset();
    pool_.reset();
}

}  // namespace attn::gui
