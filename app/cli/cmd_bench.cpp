// `attnviz bench`: median time of one full forward with the whole trace recorded.
// (`--render` hands over to the GUI's frame-time benchmark.)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>
#include <nlohmann/json.hpp>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "app/cli/commands.h"
#include "app/text/languages.h"
#include "app/cli/bench_generation.h"
#include "app/io/model_problem.h"
#include "app/io/trace_writer.h"
#include "core/storage.h"
#ifdef ATTNVIZ_HAVE_GUI
#include "app/gui/display/format.h"
#include "app/gui/export/present_bench.h"
#include "app/gui/export/render_bench.h"
#endif

namespace attn::cli {

CLI::App* add_bench_command(CLI::App& parent, BenchCommand& command) {
    CLI::App* sub = parent.add_subcommand("bench", text::tr("cli.help.cmd.bench"));
    add_config_options(*sub, command.config);
    sub->add_option("--repeat,-n", command.repeat, text::tr("cli.help.bench.repeat"))->check(CLI::Range(1, 100000))->capture_default_str();
    sub->add_option("--threads", command.threads, text::tr("cli.help.bench.threads"))->check(CLI::Range(1, 1024));
    sub->add_flag("--json", command.json, text::tr("cli.help.bench.json"));
    sub->add_flag("--render", command.render, text::tr("cli.help.bench.render"));
    sub->add_option("--width", command.width, text::tr("cli.help.bench.width"))->check(CLI::Range(64, 16384))->capture_default_str();
    sub->add_option("--height", command.height, text::tr("cli.help.bench.height"))->check(CLI::Range(64, 16384))->capture_default_str();
    sub->add_option("--lesson", command.lesson, text::tr("cli.help.bench.lesson"));
    return sub;
}

namespace {

double median(std::vector<double> values) {
    if (values.empty()) return 0.0;
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

// Resident memory of this process in MiB (Linux /proc), -1 when unknown.
double resident_mib() {
    std::ifstream status("/proc/self/status");
    std::string line;
    while (std::getline(status, line)) {
        if (line.rfind("VmRSS:", 0) == 0) return std::stod(line.substr(6)) / 1024.0;  // "VmRSS:  1234 kB"
    }
    return -1.0;
}

#ifdef ATTNVIZ_HAVE_GUI
// A slider change against its floor (issue 28): the floor is the change's own forward
// (compute minus display model) plus one settled frame of the same picture, the least a
// learner can wait for.
struct FloorFigures {
    double forward_ms = 0, frame_ms = 0, first_frame_ms = 0, over_floor = 0;
};

FloorFigures floor_of(const gui::SliderChangeTimes& s) {
    FloorFigures f;
    f.frame_ms = median(s.settled_frame_ms);
    std::vector<double> forward, first_frame, ratio;
    for (size_t i = 0; i < s.redraw_ms.size() && i < s.settled_frame_ms.size(); ++i) {
        forward.push_back(s.compute_ms[i] - s.model_ms[i]);
        first_frame.push_back(s.redraw_ms[i] - s.compute_ms[i]);
        // Each change against its own forward and the frame drawn right after it: a load
        // that comes and goes between changes cancels.
        const double floor = forward.back() + s.settled_frame_ms[i];
        if (floor > 0) ratio.push_back(s.redraw_ms[i] / floor);
    }
    f.forward_ms = median(forward);
    f.first_frame_ms = median(first_frame);
    f.over_floor = median(ratio);
    return f;
}

int report_render_bench(const gui::RenderBenchReport& r, bool json) {
    double slowest = 0.0;
    nlohmann::json by_step = nlohmann::json::object();
    for (const auto& [name, times] : r.frame_ms_by_step) {
        const double m = median(times);
        slowest = std::max(slowest, m);
        by_step[name] = m;
        if (!json) std::printf("%-16s %8s ms\n", name.c_str(), gui::format_ms(m).c_str());
    }
    nlohmann::json out = {{"frame_ms_median", slowest}, {"frame_ms_by_step", by_step},
                          {"width", r.width},           {"height", r.height},
                          {"renderer", r.renderer},     {"startup_to_first_frame_ms", r.startup_to_first_frame_ms},
                          {"export_all_steps_1920x1080_ms", r.export_all_steps_ms},
                          {"font_atlas", {r.font_atlas_width, r.font_atlas_height}}};
    for (size_t i = 0; i < r.slider_changes.size(); ++i) {
        const gui::SliderChangeTimes& s = r.slider_changes[i];
        // The first size keeps the historical key names; the others carry their size.
        const std::string suffix = i == 0 ? "" : "_" + std::to_string(s.seq_len) + "_" + std::to_string(s.hidden_dim) + "_" +
                                                      std::to_string(s.num_heads);
        out["slider_change_redraw_ms" + suffix] = median(s.redraw_ms);
        out["slider_change_compute_ms" + suffix] = median(s.compute_ms);
        out["slider_change_display_model_ms" + suffix] = median(s.model_ms);
        out["slider_change_redraw_ms_all" + suffix] = s.redraw_ms;
        out["slider_change_page_faults" + suffix] = median(s.page_faults);
        const FloorFigures f = floor_of(s);
        out["slider_change_forward_ms" + suffix] = f.forward_ms;
        out["slider_change_first_frame_ms" + suffix] = f.first_frame_ms;
        out["slider_change_settled_frame_ms" + suffix] = f.frame_ms;
        out["slider_change_over_floor" + suffix] = f.over_floor;
        if (!json) {
            std::printf("slider change redraw (%d/%d/%d): %s ms (compute %s ms, of which display model %s ms; "
                        "%.0f page faults; median of %zu)\n",
                        s.seq_len, s.hidden_dim, s.num_heads, gui::format_ms(median(s.redraw_ms)).c_str(),
                        gui::format_ms(median(s.compute_ms)).c_str(), gui::format_ms(median(s.model_ms)).c_str(),
                        median(s.page_faults), s.redraw_ms.size());
            std::printf("  against its floor (forward %s ms + settled frame %s ms): %.2fx; first frame after the change %s ms\n",
                        gui::format_ms(f.forward_ms).c_str(), gui::format_ms(f.frame_ms).c_str(), f.over_floor,
                        gui::format_ms(f.first_frame_ms).c_str());
        }
    }
    out["model_switch_redraw_ms"] = median(r.model_switch_ms);
    if (!json && !r.model_switch_ms.empty()) {
        std::printf("model switch redraw (the embedded trained models in turn): %s ms (median of %zu)\n",
                    gui::format_ms(median(r.model_switch_ms)).c_str(), r.model_switch_ms.size());
    }
    out["overview_tiny_lm_frame_ms"] = median(r.overview_frame_ms);  // View > Overview (issue 22)
    if (!json && !r.overview_frame_ms.empty()) {
        std::printf("overview of tiny-lm (every layer and head): %s ms a frame (median of %zu)\n",
                    gui::format_ms(median(r.overview_frame_ms)).c_str(), r.overview_frame_ms.size());
    }
    // Issue 22: compare mode's redraw after a change of B, the lines view's frames.
    out["compare_change_redraw_ms_256_512_8"] = median(r.compare_change_ms);
    out["lines_64x8_frame_ms"] = median(r.lines_frame_ms);
    out["lines_64x8_heatmap_frame_ms"] = median(r.lines_heatmap_frame_ms);
    if (!json && !r.compare_change_ms.empty()) {
        std::printf("compare mode, a change of B redrawn (256/512/8: B, A - B, three columns): %s ms (median of %zu)\n",
                    gui::format_ms(median(r.compare_change_ms)).c_str(), r.compare_change_ms.size());
    }
    if (!json && !r.lines_frame_ms.empty()) {
        std::printf("lines view of 64 tokens x 8 heads: %s ms a frame (the same step as heatmaps: %s ms; medians of %zu)\n",
                    gui::format_ms(median(r.lines_frame_ms)).c_str(), gui::format_ms(median(r.lines_heatmap_frame_ms)).c_str(),
                    r.lines_frame_ms.size());
    }
    out["decode_step_1024_cached_1024_16_ms"] = median(r.decode_step_ms);  // issue 30's token strip click
    if (!json && !r.decode_step_ms.empty()) {
        std::printf("decode step with 1024 cached tokens (E 1024, H 16), made and redrawn: %s ms (median of %zu)\n",
                    gui::format_ms(median(r.decode_step_ms)).c_str(), r.decode_step_ms.size());
    }
    if (json) {
        std::printf("%s\n", out.dump().c_str());
    } else {
        std::printf("slowest step median: %s ms (%dx%d, %s)\n", gui::format_ms(slowest).c_str(), r.width, r.height, r.renderer.c_str());
        std::printf("start-up to first frame: %s ms\n", gui::format_ms(r.startup_to_first_frame_ms).c_str());
        std::printf("font atlas: %dx%d\n", r.font_atlas_width, r.font_atlas_height);
        std::printf("export all steps at 1920x1080: %s ms\n", gui::format_ms(r.export_all_steps_ms).c_str());
    }
    return 0;
}
#endif

// --render: frame and slider times in the window's renderer, or a lesson presented.
int run_render_bench_command(const BenchCommand& command, const io::Problem& problem) {
#ifdef ATTNVIZ_HAVE_GUI
    if (!command.lesson.empty()) {  // presenting a lesson (gui/export/present_bench.h)
        gui::PresentBenchReport report;
        const int code = gui::run_present_bench(command.lesson, command.width, command.height, std::max(command.repeat, 30), report);
        if (code == 0) gui::print_present_bench(report);
        return code;
    }
    gui::RenderBenchOptions options;
    options.width = command.width;
    options.height = command.height;
    options.frames_per_step = std::max(command.repeat, 10);
    gui::RenderBenchReport report;
    const int code = gui::run_render_bench(problem, options, report);
    return code != 0 ? code : report_render_bench(report, command.json);
#else
    (void)command;
    (void)problem;
    return fail("this build has no GUI (configured with ATTNVIZ_BUILD_GUI=OFF), so --render is not available");
#endif
}

}  // namespace

int run_bench(const BenchCommand& command) {
    Result<io::Problem> problem = resolve_problem(command.config);
    if (!problem) return fail(problem.message());
    if (command.render) return run_render_bench_command(command, problem.value());
#ifdef _OPENMP
    if (command.threads > 0) omp_set_num_threads(command.threads);
    const int threads = omp_get_max_threads();
#else
    const int threads = 1;
#endif
    const io::Problem& p = problem.value();
    uint64_t trace_bytes = 0;
    double first_ms = 0;  // the warm-up run: fresh memory, cold caches, threads starting
    std::vector<double> times_ms;
    for (int run = -1; run < command.repeat; ++run) {  // run -1 warms caches and the thread pool
        const auto start = std::chrono::steady_clock::now();
        Result<Trace> trace = io::compute_trace(p);  // with --model: the whole model, every layer
        const auto stop = std::chrono::steady_clock::now();
        if (!trace) return fail(trace.message());
        trace_bytes = trace->storage_bytes();
        const double ms = std::chrono::duration<double, std::milli>(stop - start).count();
        if (run >= 0) times_ms.push_back(ms);
        else first_ms = ms;
    }
    // The traces are freed now; their large blocks sit in the storage cache until the
    // window, idle, gives them back (release_cached_storage): both resident sizes shown.
    const double rss_traces_freed = resident_mib();
    const std::size_t released = release_cached_storage();
    const double rss_released = resident_mib();
    const double med = median(times_ms);
    // With --model: what a model switch costs in the window before its first step can be
    // drawn: read the embedded card and weights, tokenise, run every layer, trace the layer.
    std::vector<double> load_ms;
    if (p.model) {
        for (int run = 0; run < command.repeat; ++run) {
            const auto start = std::chrono::steady_clock::now();
            Result<io::Problem> fresh = resolve_problem(command.config);
            if (!fresh) return fail(fresh.message());
            Result<Trace> trace = io::compute_trace(fresh.value());
            if (!trace) return fail(trace.message());
            load_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
    }
    Result<GenerationBench> generation = bench_generation(command.repeat);
    if (!generation) return fail(generation.message());
    if (command.json) {
        nlohmann::json out = {{"forward_ms_median", med},    {"forward_ms_all", times_ms}, {"forward_ms_first", first_ms},
                              {"trace_bytes", trace_bytes},
                              {"rss_mib_traces_freed", rss_traces_freed}, {"rss_mib_after_idle_release", rss_released},
                              {"cache_bytes_released", released},
                              {"threads", threads},          {"repeat", command.repeat},  {"config", io::config_to_json(p.config)}};
        if (p.model) {
            out["model"] = p.model->spec.name;
            out["layer"] = p.model_layer;
            out["load_and_trace_ms_median"] = median(load_ms);
            out["load_and_trace_ms_all"] = load_ms;
        }
        out["generate_tiny_llama_ms_median"] = median(generation->ms);
        out["generate_tiny_llama_tokens"] = generation->tokens;
        std::printf("%s\n", out.dump().c_str());
    } else {
        std::printf("forward with full trace: median %.2f ms over %d runs (%d threads), first run %.2f ms; trace %s\n", med,
                    command.repeat, threads, first_ms, format_bytes(trace_bytes).c_str());
        if (p.model)
            std::printf("model %s, layer %d: load + tokenise + trace (all %d layers): median %.2f ms over %d runs\n",
                        p.model->spec.name.c_str(), p.model_layer, p.model->spec.layers, median(load_ms), command.repeat);
        std::printf("resident memory: %.1f MiB with the traces freed, %.1f MiB once the cache is given back (as the idle window does)\n",
                    rss_traces_freed, rss_released);
        std::printf("generating %d tokens with tiny-llama, every step traced: median %.1f ms over %d runs (target < 1000 ms)\n",
                    generation->tokens, median(generation->ms), command.repeat);
    }
    return 0;
}

}  // namespace attn::cli
