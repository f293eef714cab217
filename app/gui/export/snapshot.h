// Off-screen drawing of whole steps to images, shared by `attnviz snapshot`, the
// window's exports and the render bench.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/gui/state/app_state.h"
#include "app/gui/gl/heatmap_cache.h"
#include "app/gui/gl/offscreen.h"

namespace attn::gui {


// What kind of picture: the canvas alone, title + canvas + explanation, or the full UI.
enum class SnapshotLayout { CanvasOnly, Slide, FullWindow };

// Draws `state` at its current playback position into `renderer` (one frame). `now` is
// the window's clock, so the status line shows what the window shows.
void render_state(OffscreenRenderer& renderer, AppState& state, HeatmapCache& cache, SnapshotLayout layout, double now = 0);

// Renders each listed step (0-based index) at `progress` and writes DIR/NN_<step>.png
// through `pool`, NN counting from 01 as the screen does ("1 / 17"). PNG encoding runs on
// background threads. Returns the files written.
struct SnapshotOptions;  // snapshot_options.h

// The state `attnviz snapshot` draws: the options' theme and presentation mode, nothing
// computed yet.
AppState snapshot_state(const SnapshotOptions& options);
// A renderer of the options' size and scale, with presentation's larger type on a picture
// of the same size (as pressing P does). Check valid() before use.
std::unique_ptr<OffscreenRenderer> snapshot_renderer(const SnapshotOptions& options);

std::vector<std::string> render_steps_to_pngs(OffscreenRenderer& renderer, AppState& state, HeatmapCache& cache,
                                              SnapshotLayout layout, const std::vector<int>& steps, float progress,
                                              const std::string& dir, class PngEncoderPool& pool, double now = 0);

}  // namespace attn::gui
