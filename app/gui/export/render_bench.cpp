// `attnviz bench --render`: frame times under the real renderer (llvmpipe here).
#include "app/gui/export/render_bench.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <tuple>

#include <sys/resource.h>

#include "app/gui/kit/cjk_font.h"
#include "app/gui/compute/compute_worker.h"
#include "app/gui/export/export.h"
#include "app/gui/gl/gl_objects.h"
#include "app/gui/gl/headless.h"
#include "app/gui/export/snapshot.h"
#include "app/io/model_loader.h"
#include "core/storage.h"

namespace attn::gui {
namespace {

using Clock = std::chrono::steady_clock;

// Taken while static objects are initialised, before main: the start of the process as
// far as our code can see it (the loader's work before that is not counted).
const Clock::time_point kProcessStart = Clock::now();

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

// Minor page faults of this process so far (fresh pages touched for the first time).
long minor_page_faults() {
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return usage.ru_minflt;
}

void load_result(AppState& state, HeatmapCache& cache, const ComputeResult& r) {
    state.results.trace = r.trace;
    state.results.model = r.model;
    state.results.query_tokens = r.query_tokens;
    state.results.key_tokens = r.key_tokens;
    state.ui.playback.set_step_count(static_cast<int>(r.trace->steps.size()));
    cache.reset(state.results.model, canvas_palette(state.settings.light_theme).masked);
}

// Puts a new result on screen as the window does, its attention weights fully arrived,
// and waits until the frame is drawn.
void show_weights(OffscreenRenderer& renderer, AppState& state, HeatmapCache& cache, const ComputeResult& r) {
    load_result(state, cache, r);
    state.ui.playback.set_position(std::max(0, r.trace->index_of(StepId::AttnWeights)), 1.0f);
    render_state(renderer, state, cache, SnapshotLayout::FullWindow);
    gl::finish();
}

// A slider dragged up to L = `seq_len` one position at a time, with the attention
// weights on screen, as the window does it: each change is a new shape, the previous
// trace stays alive while the next one is computed, the step on screen is built first
// and drawn, then (untimed, as the window does after drawing) the other steps.
SliderChangeTimes slider_drag(int width, int height, int seq_len, int hidden_dim, int num_heads) {
    SliderChangeTimes out;
    out.seq_len = seq_len;
    out.hidden_dim = hidden_dim;
    out.num_heads = num_heads;
    OffscreenRenderer renderer(width, height, 1.0f, false);
    HeatmapCache cache;
    AppState state;
    ComputeRequest request;
    request.config.hidden_dim = hidden_dim;
    request.config.num_heads = num_heads;
    request.focus_step = StepId::AttnWeights;
    constexpr int kChanges = 7;
    for (int change = -1; change < kChanges; ++change) {  // change -1 only puts a trace on screen
        request.config.seq_len = seq_len - kChanges + 1 + change;
        const auto start = Clock::now();
        const long faults_before = minor_page_faults();
        const ComputeResult r = ComputeWorker::compute(request, 1);
        if (!r.error.empty()) return out;
        show_weights(renderer, state, cache, r);
        if (change >= 0) {
            out.redraw_ms.push_back(ms_since(start));
            out.compute_ms.push_back(r.compute_ms);
            out.model_ms.push_back(r.model_ms);
            out.page_faults.push_back(static_cast<double>(minor_page_faults() - faults_before));
        }
        auto full = std::make_shared<DisplayModel>(*state.results.model);
        complete_display_model(*state.results.trace, *full);
        state.results.model = std::move(full);
        cache.adopt_completed(state.results.model);
        // The same picture settled, right after the change (so under the same load): the
        // frame of the change's floor. The median of three.
        if (change >= 0) {
            std::vector<double> settled = time_frames(renderer, state, cache, 3);
            std::sort(settled.begin(), settled.end());
            out.settled_frame_ms.push_back(settled[1]);
        }
    }
    return out;
}

// Switching between the embedded trained models as the Model menu does: the model is
// loaded from its embedded card and weights, run on its example sentence, and its
// attention weights drawn. Each switch is timed from the click to the drawn frame.
std::vector<double> model_switches(int width, int height) {
    std::vector<double> times;
    const std::vector<ModelSpec>& specs = io::list_models();
    if (specs.empty()) return times;
    OffscreenRenderer renderer(width, height, 1.0f, false);
    HeatmapCache cache;
    AppState state;
    constexpr int kSwitches = 9;
    for (int i = 0; i < kSwitches; ++i) {
        const ModelSpec& spec = specs[static_cast<size_t>(i) % specs.size()];
        const auto start = Clock::now();
        Result<std::shared_ptr<const Model>> model = io::load_model(spec.name);
        if (!model) return times;
        ComputeRequest request;
        request.model = model.value();
        request.model_sentence = spec.example;
        request.focus_step = StepId::AttnWeights;
        const ComputeResult r = ComputeWorker::compute(request, 1);
        if (!r.error.empty()) return times;
        show_weights(renderer, state, cache, r);
        times.push_back(ms_since(start));
    }
    return times;
}

// Every step of the current trace written as PNG at 1920 x 1080.
double export_all_ms(AppState& state) {
    const std::string dir = (std::filesystem::temp_directory_path() / "attnviz_bench_export").string();
    if (!ensure_writable_dir(dir).ok()) return -1.0;
    const auto start = Clock::now();
    {
        OffscreenRenderer renderer(1920, 1080, 1.0f, false);
        HeatmapCache cache;
        cache.reset(state.results.model, canvas_palette(false).masked);
        std::vector<int> steps;
        for (size_t i = 0; i < state.results.trace->steps.size(); ++i) steps.push_back(static_cast<int>(i));
        PngEncoderPool pool;
        render_steps_to_pngs(renderer, state, cache, SnapshotLayout::Slide, steps, 1.0f, dir, pool);
        if (!pool.finish().ok()) return -1.0;
    }
    const double ms = ms_since(start);
    std::error_code ec;
    std::filesystem::remove_all(dir, ec);
    return ms;
}

// View > Overview of tiny-lm (every layer and head of its attention weights) on its card's
// sentence, drawn `frames` times in the whole window; empty when the model is missing.
std::vector<double> overview_frames(int width, int height, int frames) {
    std::vector<double> times;
    Result<std::shared_ptr<const Model>> model = io::load_model("tiny-lm");
    if (!model) return times;
    ComputeRequest request;
    request.model = model.value();
    request.model_sentence = model.value()->spec.example;
    request.overview = true;
    const ComputeResult r = ComputeWorker::compute(request, 1);
    if (!r.error.empty()) return times;
    OffscreenRenderer renderer(width, height, 1.0f, false);
    HeatmapCache cache;
    AppState state;
    state.ui.canvas.overview = true;
    state.results.overview = r.overview;
    show_weights(renderer, state, cache, r);  // the first frame, untimed
    return time_frames(renderer, state, cache, frames);
}

}  // namespace

std::vector<double> time_frames(OffscreenRenderer& renderer, AppState& state, HeatmapCache& cache, int frames) {
    std::vector<double> times;
    for (int f = 0; f < frames; ++f) {
        const auto start = Clock::now();
        render_state(renderer, state, cache, SnapshotLayout::FullWindow);
        gl::finish();
        times.push_back(ms_since(start));
    }
    return times;
}

int run_render_bench(const io::Problem& problem, const RenderBenchOptions& options, RenderBenchReport& report) {
    if (options.frames_per_step < 1 || options.width < 16 || options.height < 16) {
        std::fprintf(stderr, "attnviz: error: frames per step must be >= 1 and the size at least 16x16\n");
        return 2;
    }
    // Start-up as the window does it: its malloc policy, a GL context, the first trace,
    // the first frame.
    keep_freed_memory_for_reuse();
    HeadlessGl gl;
    if (!gl.ok()) {
        std::fprintf(stderr, "%s\n", kNoDisplayMessage);
        return 2;
    }
    const ComputeResult computed = ComputeWorker::compute(problem, 0, 512);
    if (!computed.error.empty()) {
        std::fprintf(stderr, "attnviz: error: %s\n", english(computed.error).c_str());
        return 2;
    }
    AppState state;
    state.settings.show_values = true;
    HeatmapCache cache;
    load_result(state, cache, computed);
    note_shown_glyphs(state);  // as the window does before its first atlas
    OffscreenRenderer renderer(options.width, options.height, 1.0f, false);
    if (!renderer.valid()) {
        std::fprintf(stderr, "attnviz: error: %s\n", english(renderer.error()).c_str());
        return 2;
    }
    render_state(renderer, state, cache, SnapshotLayout::FullWindow);
    gl::finish();
    report.startup_to_first_frame_ms = ms_since(kProcessStart);
    std::tie(report.font_atlas_width, report.font_atlas_height) = renderer.font_atlas_size();
    report.width = options.width;
    report.height = options.height;
    report.renderer = gl::renderer_name();

    const int n = static_cast<int>(state.results.trace->steps.size());
    for (int step = 0; step < n; ++step) {
        // One untimed frame bakes the step's textures (that happens once per trace).
        state.ui.playback.set_position(step, 0.0f);
        render_state(renderer, state, cache, SnapshotLayout::FullWindow);
        gl::finish();
        std::vector<double> times;
        for (int f = 0; f < options.frames_per_step; ++f) {
            state.ui.playback.set_position(step, static_cast<float>(f + 1) / static_cast<float>(options.frames_per_step));
            const auto start = Clock::now();
            render_state(renderer, state, cache, SnapshotLayout::FullWindow);
            gl::finish();
            times.push_back(ms_since(start));
        }
        report.frame_ms_by_step.emplace_back(state.results.trace->steps[static_cast<size_t>(step)].name(), std::move(times));
    }
    report.slider_changes.push_back(slider_drag(options.width, options.height, 256, 512, 8));
    report.slider_changes.push_back(slider_drag(options.width, options.height, 64, 256, 8));
    report.model_switch_ms = model_switches(options.width, options.height);
    report.export_all_steps_ms = export_all_ms(state);
    report.overview_frame_ms = overview_frames(options.width, options.height, options.frames_per_step);
    report.compare_change_ms = compare_changes(options.width, options.height, 256, 512, 8);
    report.lines_frame_ms = lines_frames(options.width, options.height, 64, 8, options.frames_per_step, "lines");
    report.lines_heatmap_frame_ms = lines_frames(options.width, options.height, 64, 8, options.frames_per_step, "heatmap");
    report.decode_step_ms = decode_step_clicks(options.width, options.height, 1024, 1024, 16, 7);
    return 0;
}

}  // namespace attn::gui
