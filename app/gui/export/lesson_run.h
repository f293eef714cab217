// A lesson opened for drawing off-screen (`attnviz snapshot --lesson`, its --animate and
// --handout): every slide computed before the first picture, so the font atlas is built
// once with every character the slides show (a Chinese sentence, a tokenizer's vocabulary).
#pragma once

#include <vector>

#include "app/gui/export/snapshot_options.h"
#include "app/gui/gl/heatmap_cache.h"
#include "app/gui/state/app_state.h"
#include "app/lesson/lesson.h"

namespace attn::gui {

struct ComputedSlide {
    const lesson::OpenedSlide* slide;
    ComputeResult result;
};

struct LessonRun {
    lesson::OpenedLesson opened;
    AppState state;
    std::vector<ComputedSlide> computed;
    bool presenting = false;  // drawn in presentation's layout (lesson_picture_options)
};

// The options a lesson's pictures, animation and handout are drawn with: presentation's
// layout and type, as the class sees the slides (issue 32: exports look like slides).
// A lesson of tour slides only (which point at parts of the window) is drawn as the window.
SnapshotOptions lesson_picture_options(const SnapshotOptions& options, const LessonRun& run);

// Opens options.lesson and computes every slide into `run` (its slides point into its
// lesson); empty, or why the lesson cannot be drawn. Slides that do not open are left
// out and listed in run.opened.problems.
Message compute_lesson(const SnapshotOptions& options, LessonRun& run);
// The same for the command line: returns 0, or the exit code 2 after printing why (and
// every slide that did not open) on stderr.
int prepare_lesson(const SnapshotOptions& options, LessonRun& run);
// Draws every slide of a prepared `run` as options.out_dir/NN_<title>.png with the GL
// context current now (the command line's off-screen one, or the page's own window in
// the browser); empty, or why the pictures were not written.
Message write_lesson_pictures(const SnapshotOptions& options, LessonRun& run);
// Puts slide `c` on the run's state: its trace in (moved out of `c`), its textures baked,
// and its place and title in the title strip ("Slide 3 / 8: <title> · <step>"). A tour
// slide, which points at parts of the window, is drawn as the window (not presenting).
void show_computed(LessonRun& run, ComputedSlide& c, HeatmapCache& cache);

}  // namespace attn::gui
