// Entry points of the ImGui front end, called from app/main.cpp.
// Each returns a process exit code: 0 success, 2 bad input (message already on stderr).
#pragma once

#include <string>

#include "app/io/problem.h"

namespace attn::gui {

// The interactive window (`attnviz` with no subcommand). `initial` is the starting
// problem (default sentence and sizes, or what the command line gave). `resume`: the
// command line gave no configuration, so the saved one (with its sentence and step)
// comes back when it passes validation.
int run_window(const io::Problem& initial, bool resume);

struct RenderBenchOptions {
    int frames_per_step = 60;
    int width = 1280, height = 720;
    bool json = false;
};
// `attnviz bench --render`: median frame time per step under the real renderer.
int run_render_bench(const io::Problem& problem, const RenderBenchOptions& options);

}  // namespace attn::gui
