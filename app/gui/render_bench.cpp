// `attnviz bench --render`: frame times under the real renderer (llvmpipe here).
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "app/gui/entry.h"
#include "app/gui/export.h"
#include "app/gui/format.h"
#include "app/gui/gl/gl_objects.h"
#include "app/gui/headless.h"
#include "app/gui/snapshot.h"

namespace attn::gui {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    const size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string json_escape(const std::string& s) {
    std::string out;
    for (char c : s) {
        if (c == '"' || c == '\\') out += '\\';
        out += c;
    }
    return out;
}

void load_result(AppState& state, HeatmapCache& cache, const ComputeResult& r) {
    state.results.trace = r.trace;
    state.results.model = r.model;
    state.results.query_tokens = r.query_tokens;
    state.results.key_tokens = r.key_tokens;
    state.ui.playback.set_step_count(static_cast<int>(r.trace->steps.size()));
    cache.reset(state.results.model, canvas_palette(state.settings.light_theme).masked);
}

// Time from a changed setting (a new seed) to the new trace drawn, at 256 / 512 / 8.
double slider_change_ms(int width, int height, double& compute_ms, double& model_ms) {
    AttentionConfig config;
    config.seq_len = 256;
    config.hidden_dim = 512;
    config.num_heads = 8;
    OffscreenRenderer renderer(width, height, 1.0f, false);
    HeatmapCache cache;
    AppState state;
    double best = 1e9;
    for (int attempt = 0; attempt < 3; ++attempt) {
        config.seed = static_cast<uint64_t>(attempt + 1);
        ComputeRequest request;
        request.config = config;
        const auto start = Clock::now();
        const ComputeResult r = ComputeWorker::compute(request, 1);
        if (!r.error.empty()) return -1.0;
        compute_ms = r.compute_ms;
        model_ms = r.model_ms;
        load_result(state, cache, r);
        state.ui.playback.set_position(std::max(0, r.trace->index_of(StepId::AttnWeights)), 1.0f);
        render_state(renderer, state, cache, SnapshotLayout::FullWindow);
        gl::finish();
        best = std::min(best, ms_since(start));
    }
    return best;
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

}  // namespace

int run_render_bench(const io::Problem& problem, const RenderBenchOptions& options) {
    if (options.frames_per_step < 1 || options.width < 16 || options.height < 16) {
        std::fprintf(stderr, "attnviz: error: frames per step must be >= 1 and the size at least 16x16\n");
        return 2;
    }
    const ComputeResult computed = ComputeWorker::compute(problem, 0, 512);
    if (!computed.error.empty()) {
        std::fprintf(stderr, "attnviz: error: %s\n", computed.error.c_str());
        return 2;
    }
    HeadlessGl gl;
    if (!gl.ok()) {
        std::fprintf(stderr, "%s\n", kNoDisplayMessage);
        return 2;
    }
    AppState state;
    state.settings.show_values = true;
    HeatmapCache cache;
    load_result(state, cache, computed);
    OffscreenRenderer renderer(options.width, options.height, 1.0f, false);
    if (!renderer.valid()) {
        std::fprintf(stderr, "attnviz: error: %s\n", renderer.error().c_str());
        return 2;
    }

    std::vector<std::pair<std::string, double>> by_step;
    double slowest = 0.0;
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
        const double m = median(times);
        slowest = std::max(slowest, m);
        by_step.emplace_back(state.results.trace->steps[static_cast<size_t>(step)].name(), m);
        if (!options.json) std::printf("%-16s %8s ms\n", by_step.back().first.c_str(), format_ms(m).c_str());
    }
    double slider_compute_ms = 0, slider_model_ms = 0;
    const double slider_ms = slider_change_ms(options.width, options.height, slider_compute_ms, slider_model_ms);
    const double export_ms = export_all_ms(state);
    if (options.json) {
        std::printf("{\"frame_ms_median\": %.3f, \"frame_ms_by_step\": {", slowest);
        for (size_t i = 0; i < by_step.size(); ++i) {
            std::printf("%s\"%s\": %.3f", i ? ", " : "", json_escape(by_step[i].first).c_str(), by_step[i].second);
        }
        std::printf("}, \"width\": %d, \"height\": %d, \"slider_change_redraw_ms\": %.1f, \"slider_change_compute_ms\": %.1f, "
                    "\"slider_change_display_model_ms\": %.1f, \"export_all_steps_1920x1080_ms\": %.1f, \"renderer\": \"%s\"}\n",
                    options.width, options.height, slider_ms, slider_compute_ms, slider_model_ms, export_ms, json_escape(gl::renderer_name()).c_str());
    } else {
        std::printf("slowest step median: %s ms (%dx%d, %s)\n", format_ms(slowest).c_str(), options.width,
                    options.height, gl::renderer_name().c_str());
        std::printf("slider change redraw (256/512/8): %s ms (compute %s ms, of which display model %s ms)\n",
                    format_ms(slider_ms).c_str(), format_ms(slider_compute_ms).c_str(), format_ms(slider_model_ms).c_str());
        std::printf("export all steps at 1920x1080: %s ms\n", format_ms(export_ms).c_str());
    }
    return 0;
}

}  // namespace attn::gui
