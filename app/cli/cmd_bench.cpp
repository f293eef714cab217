// `attnviz bench`: median time of one full forward with the whole trace recorded.
// (`--render` hands over to the GUI's frame-time benchmark.)
#include <algorithm>
#include <chrono>
#include <cstdio>
#include <nlohmann/json.hpp>
#ifdef _OPENMP
#include <omp.h>
#endif

#include "app/cli/commands.h"
#include "app/io/model_problem.h"
#include "app/io/trace_writer.h"
#ifdef ATTNVIZ_HAVE_GUI
#include "app/gui/entry.h"
#endif

namespace attn::cli {

CLI::App* add_bench_command(CLI::App& parent, BenchCommand& command) {
    CLI::App* sub = parent.add_subcommand("bench", "time one forward with the full trace (or frames, with --render)");
    add_config_options(*sub, command.config);
    sub->add_option("--repeat,-n", command.repeat, "timed runs (the median is reported)")->check(CLI::Range(1, 100000))->capture_default_str();
    sub->add_option("--threads", command.threads, "threads for the forward (default: all cores)")->check(CLI::Range(1, 1024));
    sub->add_flag("--json", command.json, "print one JSON object");
    sub->add_flag("--render", command.render, "time rendered frames per step instead (needs a display)");
    sub->add_option("--width", command.width, "--render: frame width")->check(CLI::Range(64, 16384))->capture_default_str();
    sub->add_option("--height", command.height, "--render: frame height")->check(CLI::Range(64, 16384))->capture_default_str();
    return sub;
}

static double median(std::vector<double> values) {
    std::sort(values.begin(), values.end());
    const size_t n = values.size();
    return n % 2 ? values[n / 2] : 0.5 * (values[n / 2 - 1] + values[n / 2]);
}

int run_bench(const BenchCommand& command) {
    Result<io::Problem> problem = resolve_problem(command.config);
    if (!problem) return fail(problem.error());
    if (command.render) {
#ifdef ATTNVIZ_HAVE_GUI
        gui::RenderBenchOptions options;
        options.width = command.width;
        options.height = command.height;
        options.json = command.json;
        options.frames_per_step = std::max(command.repeat, 10);
        return gui::run_render_bench(problem.value(), options);
#else
        return fail("this build has no GUI (configured with ATTNVIZ_BUILD_GUI=OFF), so --render is not available");
#endif
    }
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
        if (!trace) return fail(trace.error());
        trace_bytes = trace->storage_bytes();
        const double ms = std::chrono::duration<double, std::milli>(stop - start).count();
        if (run >= 0) times_ms.push_back(ms);
        else first_ms = ms;
    }
    const double med = median(times_ms);
    // With --model: what a model switch costs in the window before its first step can be
    // drawn: read the embedded card and weights, tokenise, run every layer, trace the layer.
    std::vector<double> load_ms;
    if (p.model) {
        for (int run = 0; run < command.repeat; ++run) {
            const auto start = std::chrono::steady_clock::now();
            Result<io::Problem> fresh = resolve_problem(command.config);
            if (!fresh) return fail(fresh.error());
            Result<Trace> trace = io::compute_trace(fresh.value());
            if (!trace) return fail(trace.error());
            load_ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count());
        }
    }
    if (command.json) {
        nlohmann::json out = {{"forward_ms_median", med},    {"forward_ms_all", times_ms}, {"forward_ms_first", first_ms},
                              {"trace_bytes", trace_bytes},
                              {"threads", threads},          {"repeat", command.repeat},  {"config", io::config_to_json(p.config)}};
        if (p.model) {
            out["model"] = p.model->spec.name;
            out["layer"] = p.model_layer;
            out["load_and_trace_ms_median"] = median(load_ms);
            out["load_and_trace_ms_all"] = load_ms;
        }
        std::printf("%s\n", out.dump().c_str());
    } else {
        std::printf("forward with full trace: median %.2f ms over %d runs (%d threads), first run %.2f ms; trace %s\n", med,
                    command.repeat, threads, first_ms, format_bytes(trace_bytes).c_str());
        if (p.model)
            std::printf("model %s, layer %d: load + tokenise + trace (all %d layers): median %.2f ms over %d runs\n",
                        p.model->spec.name.c_str(), p.model_layer, p.model->spec.layers, median(load_ms), command.repeat);
    }
    return 0;
}

}  // namespace attn::cli
