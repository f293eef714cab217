// `attnviz bench --render --lesson FILE`: what presenting a lesson costs under the real
// renderer (llvmpipe here): frame times of every slide in presentation mode with the pen's
// strokes on screen (goal 16.7 ms at 1280x720), and moving to the next slide, its
// configuration computed and its first frame drawn (goal 50 ms). Figures, not a test.
#pragma once

#include <string>
#include <vector>

namespace attn::gui {

struct PresentBenchReport {
    std::string renderer;
    int width = 0, height = 0, strokes = 0, stroke_points = 0;
    std::vector<std::vector<double>> frame_ms;  // per slide: presenting frames with the strokes
    std::vector<double> next_slide_ms;          // per move to slide 2, 3, ...: apply, compute, first frame
};

// Runs the benchmark (`frames` timed frames per slide). Returns 0, or 2 with a line on stderr.
int run_present_bench(const std::string& lesson_path, int width, int height, int frames, PresentBenchReport& report);
// Prints the report's medians and worst frames, one line each.
void print_present_bench(const PresentBenchReport& report);

}  // namespace attn::gui
