// ExportRunner: carries out the export dialog's requests between frames (they need the
// window's GL context for off-screen drawing, never inside an ImGui frame). Snapshots and
// CSV/tensor exports finish at once; "export all steps" draws one step per frame so the
// status line's progress bar moves; an animation (GIF or MP4) draws a few frames per
// frame, with a progress bar and Cancel (export_runner_animation.cpp).
#pragma once

#include <memory>
#include <optional>

#include "app/gui/state/app_state.h"
#include "app/gui/export/animation_export.h"
#include "app/gui/export/export.h"
#include "app/gui/gl/heatmap_cache.h"
#include "app/gui/gl/offscreen.h"

namespace attn::gui {

class ExportRunner {
public:
    // `win_w` x `win_h`: the window's size in logical pixels (whole-window exports);
    // canvas-only exports use the canvas's size from state.canvas. `now`: the window's clock.
    void start(AppState& state, const ExportRequest& request, int win_w, int win_h, double now);
    // One step of "export all steps" per call; reports on the status line when done.
    void continue_all(AppState& state, double now);
    // Stops an animated export (Cancel): its temporary file is removed, nothing is written.
    void cancel(AppState& state, double now);

private:
    void start_animation(AppState& state, const ExportRequest& request, int win_w, int win_h, double now);
    void continue_animation(AppState& state, double now);
    std::unique_ptr<AnimationExport> animation_;
    std::optional<AnimationRequest> pending_animation_;  // waits until every step has its pixels
    std::unique_ptr<OffscreenRenderer> renderer_;  // alive during "export all steps"
    std::unique_ptr<PngEncoderPool> pool_;
    HeatmapCache cache_;
};

// The logical size of an exported picture: the canvas plus its title strip, or the window.
void export_image_size(const AppState& state, bool canvas_only, int win_w, int win_h, int& width, int& height);

}  // namespace attn::gui
