// `attnviz bench --render`: what a learner waits for under the real renderer (llvmpipe
// here): frame times per step, a setting change until redrawn, start-up until the first
// frame, exporting every step. Raw samples only; the command line summarises them.
#pragma once

#include <string>
#include <utility>
#include <vector>

#include "app/io/problem.h"

namespace attn::gui {

class OffscreenRenderer;
class HeatmapCache;
struct AppState;

struct RenderBenchOptions {
    int frames_per_step = 60;
    int width = 1280, height = 720;
};

// One size a slider change is timed at.
struct SliderChangeTimes {
    int seq_len = 0, hidden_dim = 0, num_heads = 0;  // L, E, H at the end of the drag
    std::vector<double> redraw_ms;   // per change: compute + display model + first frame drawn
    std::vector<double> compute_ms;  // of which: problem, forward and display model
    std::vector<double> model_ms;    // of which: the display model
    std::vector<double> page_faults; // minor page faults per change (fresh memory touched)
    // Per change: the same picture drawn again once settled (median of 3 frames, right
    // after the change): with the change's forward (compute_ms - model_ms) it makes the
    // change's floor, the least a redraw can take (a new forward, then one frame).
    std::vector<double> settled_frame_ms;
};

struct RenderBenchReport {
    int width = 0, height = 0;
    std::string renderer;
    std::vector<std::pair<std::string, std::vector<double>>> frame_ms_by_step;  // step name, frame times
    std::vector<SliderChangeTimes> slider_changes;  // 256/512/8, then 64/256/8
    std::vector<double> model_switch_ms;  // picking another trained model until its weights step is drawn
    double startup_to_first_frame_ms = 0;  // process start (before main) to the first frame drawn
    int font_atlas_width = 0, font_atlas_height = 0;  // the font atlas's texture at the first frame
    double export_all_steps_ms = 0;        // every step as PNG at 1920x1080 (-1: failed)
    std::vector<double> compare_change_ms;  // compare mode at 256/512/8: a change of B until redrawn
    std::vector<double> lines_frame_ms;     // the lines view of 64 tokens x 8 heads, per frame
    std::vector<double> lines_heatmap_frame_ms;  // the same step drawn as heatmaps (the reference)
    std::vector<double> overview_frame_ms; // View > Overview of tiny-lm on its example sentence, frame times
    // Issue 30: a token strip click on a decode step with 1024 cached tokens at E 1024, H 16
    // (one row made against the kept cache, its display model, the frame drawn), per click.
    std::vector<double> decode_step_ms;
};

// The whole window drawn `frames` times as it stands, each frame timed until the GPU is done.
std::vector<double> time_frames(OffscreenRenderer& renderer, AppState& state, HeatmapCache& cache, int frames);

// Issue 22's views (render_bench_views.cpp): compare mode's redraw after each of 7 changes
// of B's seed at L, E, H (B computed, A − B redone, the frame drawn), and the lines view's
// frame times with L tokens and H heads (`weights_as` "heatmap": the same step as heatmaps, the reference).
std::vector<double> compare_changes(int width, int height, int seq_len, int hidden_dim, int num_heads);
std::vector<double> lines_frames(int width, int height, int seq_len, int num_heads, int frames, const std::string& weights_as);
// Issue 30: the token strip's clicks on the next token after `cached` positions at E, H
// (attention weights on screen): each step made against the kept cache (one row, the step
// on screen's display model) and the window drawn, `clicks` times.
std::vector<double> decode_step_clicks(int width, int height, int cached, int hidden_dim, int num_heads, int clicks);

// Runs the benchmark on `problem`. Returns 0, or 2 with one line already on stderr.
int run_render_bench(const io::Problem& problem, const RenderBenchOptions& options, RenderBenchReport& report);

}  // namespace attn::gui
