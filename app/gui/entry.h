// Entry points of the ImGui front end, called from app/main.cpp.
// Each returns a process exit code: 0 success, 2 bad input (message already on stderr).
#pragma once

#include <string>

#include "app/io/problem.h"

namespace attn::gui {

// The interactive window (`attnviz` with no subcommand). `initial` is the starting
// problem (default sentence and sizes, or what the command line gave).
int run_window(const io::Problem& initial);

struct SnapshotOptions {
    std::string out_dir;
    std::string step = "all";   // a step name or "all"
    float progress = 1.0f;      // 0..1: the moment inside the step's animation
    int width = 1280, height = 720;
    int scale = 1;              // 1, 2 or 4
    std::string theme = "dark"; // dark | light
};
// `attnviz snapshot`: writes DIR/NN_<step>.png, drawn by the same code as the window.
int run_snapshot(const io::Problem& problem, const SnapshotOptions& options);

// `attnviz bench --render` is declared in render_bench.h.

}  // namespace attn::gui
