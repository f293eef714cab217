// `attnviz snapshot --lesson FILE`: every slide drawn by the window's own code, as the
// slide puts the screen (apply_slide, then the slide's trace through accept_result).
#include <chrono>
#include <cstdio>

#include "app/gui/kit/cjk_font.h"
#include "app/gui/state/enter_slide.h"
#include "app/gui/export/animation_export.h"
#include "app/gui/export/export.h"
#include "app/gui/export/lesson_run.h"
#include "app/gui/gl/headless.h"
#include "app/gui/state/lesson_apply.h"
#include "app/gui/export/png_encoder.h"
#include "app/gui/export/snapshot.h"
#include "app/gui/export/snapshot_options.h"
#include "app/text/languages.h"
#include "app/text/text_template.h"

namespace attn::gui {
namespace {

int print_error(const Message& message) {
    std::fprintf(stderr, "attnviz: error: %s\n", text::render(message).c_str());
    return 2;
}

}  // namespace

Message compute_lesson(const SnapshotOptions& options, LessonRun& run) {
    Result<lesson::OpenedLesson> opened = lesson::open_lesson(options.lesson);
    if (!opened) return opened.message();
    run.opened = std::move(opened.value());
    // The lesson's own language unless --lang chose one.
    if (text::active().code() == "en") text::set_language(run.opened.lesson.language);
    if (run.opened.slides.empty()) return Message("lesson.none_open", {{"file", options.lesson}});
    run.state = snapshot_state(options);
    run.presenting = lesson_picture_options(options, run).presentation;
    for (const lesson::OpenedSlide& slide : run.opened.slides) {
        ComputeRequest request = apply_slide(run.state, slide);
        set_tour_words(run.state.tour, slide.slide, 0, 1);  // its words' characters join the font atlas
        request.focus_step.reset();  // every step: cells on other steps are checked against their panels
        run.computed.push_back({&slide, ComputeWorker::compute(request, 0)});
        if (!run.computed.back().result.error.empty()) return run.computed.back().result.error;
        accept_result(run.state, run.computed.back().result, 0.0);
        note_shown_glyphs(run.state);
    }
    return {};
}

int prepare_lesson(const SnapshotOptions& options, LessonRun& run) {
    const Message failed = compute_lesson(options, run);
    for (const Message& problem : run.opened.problems) print_error(problem);
    return failed.empty() ? 0 : print_error(failed);
}

SnapshotOptions lesson_picture_options(const SnapshotOptions& options, const LessonRun& run) {
    SnapshotOptions slides = options;
    for (const lesson::OpenedSlide& slide : run.opened.slides)
        if (slide.slide.view.elements.empty()) slides.presentation = true;
    return slides;
}

void show_computed(LessonRun& run, ComputedSlide& c, HeatmapCache& cache) {
    apply_slide(run.state, *c.slide);
    const int index = static_cast<int>(&c - run.computed.data());
    enter_slide(run.state.ui.present, run.opened, index);
    run.state.ui.presentation = run.presenting && c.slide->slide.view.elements.empty();
    // A tour slide's bubble, with its words (state/tour.h); other slides have none.
    if (c.slide->slide.view.elements.empty()) run.state.tour = TourState{};
    else set_tour_words(run.state.tour, c.slide->slide, index, static_cast<int>(run.computed.size()));
    accept_result(run.state, std::move(c.result), 0.0);
    cache.reset(run.state.results.model, canvas_palette(run.state.settings.light_theme).masked);
}

Message write_lesson_pictures(const SnapshotOptions& asked, LessonRun& run) {
    const SnapshotOptions options = lesson_picture_options(asked, run);
    const Status dir = ensure_writable_dir(options.out_dir);
    if (!dir.ok()) return dir.message();
    const std::unique_ptr<OffscreenRenderer> offscreen = snapshot_renderer(options);
    OffscreenRenderer& renderer = *offscreen;
    if (!renderer.valid()) return renderer.error();
    HeatmapCache cache;
    PngEncoderPool pool;
    for (ComputedSlide& c : run.computed) {
        show_computed(run, c, cache);
        // A slide that points at parts of the window (a tour's) is drawn as the whole window.
        render_state(renderer, run.state, cache, c.slide->slide.view.elements.empty() ? SnapshotLayout::Slide : SnapshotLayout::FullWindow);
        pool.wait_for_room();
        pool.submit(options.out_dir + "/" + lesson::slide_file_name(c.slide->slide), renderer.pixel_width(),
                    renderer.pixel_height(), renderer.pixels());
    }
    if (!cache.error().empty()) return Message::plain(cache.error());
    if (const Status written = pool.finish(); !written.ok()) return written.message();
    return {};
}

int run_lesson_snapshot(const SnapshotOptions& asked) {
    LessonRun run;
    if (const int code = prepare_lesson(asked, run)) return code;
    HeadlessGl gl;
    if (!gl.ok()) {
        std::fprintf(stderr, "%s\n", kNoDisplayMessage);
        return 2;
    }
    if (const Message failed = write_lesson_pictures(asked, run); !failed.empty()) return print_error(failed);
    return run.opened.problems.empty() ? 0 : 2;
}

int run_lesson_animation(const SnapshotOptions& asked) {
    AnimationRequest request;
    if (const std::string refused = animation_request_of(asked, request); !refused.empty())
        return print_error(Message::plain(refused));
    LessonRun run;
    if (const int code = prepare_lesson(asked, run)) return code;
    if (lesson_picture_options(asked, run).presentation) request.type_scale = kPresentationTypeScale;
    HeadlessGl gl;
    if (!gl.ok()) {
        std::fprintf(stderr, "%s\n", kNoDisplayMessage);
        return 2;
    }
    OffscreenRenderer renderer(request.width, request.height, static_cast<float>(request.scale), run.state.settings.light_theme,
                               request.type_scale);
    if (!renderer.valid()) return print_error(renderer.error());
    auto writer = media::open_animation(request.format, request.path, renderer.pixel_width(), renderer.pixel_height(),
                                        request.timing.fps);
    if (!writer) return print_error(writer.message());
    HeatmapCache cache;
    const auto started = std::chrono::steady_clock::now();
    int drawn = 0;
    double seconds = 0;
    for (ComputedSlide& c : run.computed) {
        show_computed(run, c, cache);
        // The slide's step as Play shows it: its source held, the animation, its end held.
        const std::vector<media::PlannedFrame> frames = media::plan_frames({run.state.ui.playback.step()}, request.timing);
        for (const media::PlannedFrame& f : frames) {
            run.state.ui.playback.set_position(f.step, f.progress);
            render_state(renderer, run.state, cache, request.layout);
            if (!cache.error().empty()) return print_error(Message::plain(cache.error()));
            if (Status added = writer.value()->add_frame(renderer.pixels().data(), f.seconds); !added) return print_error(added.message());
        }
        drawn += static_cast<int>(frames.size());
        seconds += media::total_seconds(frames);
    }
    if (Status finished = writer.value()->finish(); !finished) return print_error(finished.message());
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("%s\n", text::trf("cli.animation_written", {{"path", request.path}, {"frames", writer.value()->frames_written()},
                                                            {"drawn", drawn}, {"seconds", text::fixed(seconds, 2)},
                                                            {"width", renderer.pixel_width()}, {"height", renderer.pixel_height()},
                                                            {"elapsed", text::fixed(elapsed, 2)}})
                            .c_str());
    return run.opened.problems.empty() ? 0 : 2;
}

}  // namespace attn::gui
