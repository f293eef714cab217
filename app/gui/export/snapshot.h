// Off-screen drawing of whole steps to images, shared by `attnviz snapshot`, the
// window's exports and the render bench.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "app/gui/state/app_state.h"
#include "app/gui/gl/heatmap_cache.h"
#include "app/gui/gl/offscreen.h"
#include "app/gui/export/snapshot_options.h"

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

// The 0-based indices of the steps `spec` names: "all", or step names separated by commas
// (in the trace's order). False with a message naming the valid steps on a bad name.
bool steps_to_draw(const Trace& trace, const std::string& spec, std::vector<int>& steps, std::string& error);
// --layout's names: "slide" (title, canvas and explanation), "canvas", "window".
SnapshotLayout snapshot_layout(const std::string& name);
// What `attnviz snapshot` draws: the problem computed into `state` (theme and presentation
// mode from `options`) and the steps options.step names. A message on a bad problem or step.
Status prepare_snapshot_state(const io::Problem& problem, const SnapshotOptions& options, AppState& state,
                              std::vector<int>& steps);

}  // namespace attn::gui
