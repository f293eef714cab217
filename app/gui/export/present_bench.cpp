#include "app/gui/export/present_bench.h"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "app/gui/export/snapshot.h"
#include "app/gui/gl/gl_objects.h"
#include "app/gui/gl/headless.h"
#include "app/gui/state/lesson_apply.h"
#include "app/gui/views/canvas/canvas_painter.h"
#include "app/gui/kit/cjk_font.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

using Clock = std::chrono::steady_clock;

double ms_since(Clock::time_point start) { return std::chrono::duration<double, std::milli>(Clock::now() - start).count(); }

// A teacher's busy slide: `count` freehand loops of `points` points each, in the four
// colours, anchored to the first cell of the step's first panel on screen (they wander over its cells).
std::vector<lesson::Annotation> busy_strokes(StepId step, int panel, int count, int points) {
    std::vector<lesson::Annotation> strokes;
    for (int s = 0; s < count; ++s) {
        lesson::Annotation a;
        a.colour = s % static_cast<int>(lesson::kPenColours.size());
        a.cell = lesson::CellAnchor{step, panel, 0, 0, lesson::CellPart::Result};
        for (int i = 0; i < points; ++i) {
            const float t = static_cast<float>(i) / static_cast<float>(points) * 6.2832f;
            a.points.push_back({2.0f + 1.5f * std::cos(t) + 0.3f * static_cast<float>(s), 2.0f + 1.5f * std::sin(t)});
        }
        strokes.push_back(std::move(a));
    }
    return strokes;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0.0;
    std::sort(v.begin(), v.end());
    return v[v.size() / 2];
}

}  // namespace

int run_present_bench(const std::string& lesson_path, int width, int height, int frames, PresentBenchReport& report) {
    Result<lesson::OpenedLesson> opened = lesson::open_lesson(lesson_path);
    if (!opened || opened->slides.empty()) {
        std::fprintf(stderr, "attnviz: error: %s\n",
                     text::render(opened ? Message("lesson.none_open", {{"file", lesson_path}}) : opened.message()).c_str());
        return 2;
    }
    HeadlessGl gl;
    if (!gl.ok()) {
        std::fprintf(stderr, "%s\n", kNoDisplayMessage);
        return 2;
    }
    AppState state;
    state.ui.presentation = true;
    OffscreenRenderer renderer(width, height, 1.0f, false, kPresentationTypeScale);
    HeatmapCache cache;
    report.renderer = gl::renderer_name();
    report.width = width;
    report.height = height;
    report.strokes = 12;
    report.stroke_points = 200;
    // Each slide as the window moves to it: the slide applied, its step computed first,
    // the trace taken in and the first frame drawn; then frames with the strokes on it.
    for (size_t i = 0; i < opened->slides.size(); ++i) {
        const auto start = Clock::now();
        const ComputeRequest request = apply_slide(state, opened->slides[i]);
        accept_result(state, ComputeWorker::compute(request, 1), 0.0);
        if (!state.results.trace) return 2;
        note_shown_glyphs(state);
        cache.reset(state.results.model, canvas_palette(false).masked);
        render_state(renderer, state, cache, SnapshotLayout::FullWindow);
        gl::finish();
        if (i > 0) report.next_slide_ms.push_back(ms_since(start));
        const int step = std::clamp(state.ui.playback.step(), 0, static_cast<int>(state.results.trace->steps.size()) - 1);
        const std::vector<int> shown = visible_panels(state.results.model->steps[static_cast<size_t>(step)], state.ui.canvas);
        state.ui.lesson.marks.annotations = busy_strokes(state.results.trace->steps[static_cast<size_t>(step)].id,
                                                         shown.empty() ? 0 : shown.front(), report.strokes, report.stroke_points);
        std::vector<double> times;
        for (int f = 0; f < frames; ++f) {
            const auto frame_start = Clock::now();
            render_state(renderer, state, cache, SnapshotLayout::FullWindow);
            gl::finish();
            times.push_back(ms_since(frame_start));
        }
        report.frame_ms.push_back(std::move(times));
    }
    return 0;
}

void print_present_bench(const PresentBenchReport& r) {
    std::printf("presenting at %dx%d on %s, %d pen strokes of %d points on every slide\n", r.width, r.height,
                r.renderer.c_str(), r.strokes, r.stroke_points);
    std::vector<double> all;
    for (size_t i = 0; i < r.frame_ms.size(); ++i) {
        const auto& t = r.frame_ms[i];
        std::printf("  slide %zu: frame median %.1f ms, worst %.1f ms (goal 16.7 ms)\n", i + 1, median(t),
                    t.empty() ? 0.0 : *std::max_element(t.begin(), t.end()));
        all.insert(all.end(), t.begin(), t.end());
    }
    std::printf("  all slides: frame median %.1f ms, worst %.1f ms\n", median(all), all.empty() ? 0.0 : *std::max_element(all.begin(), all.end()));
    for (size_t i = 0; i < r.next_slide_ms.size(); ++i)
        std::printf("  to slide %zu (configuration change, compute, first frame): %.1f ms (goal 50 ms)\n", i + 2, r.next_slide_ms[i]);
}

}  // namespace attn::gui
