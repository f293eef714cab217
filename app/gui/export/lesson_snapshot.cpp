// `attnviz snapshot --lesson FILE`: every slide drawn by the window's own code, as the
// slide puts the screen (apply_slide, then the slide's trace through accept_result).
#include <cstdio>

#include "app/gui/window/cjk_font.h"
#include "app/gui/export/export.h"
#include "app/gui/gl/headless.h"
#include "app/gui/state/lesson_apply.h"
#include "app/gui/export/png_encoder.h"
#include "app/gui/export/snapshot.h"
#include "app/gui/export/snapshot_options.h"
#include "app/text/languages.h"

namespace attn::gui {
namespace {

int print_error(const Message& message) {
    std::fprintf(stderr, "attnviz: error: %s\n", text::render(message).c_str());
    return 2;
}

// Every slide's state, computed before the first picture: the font atlas is built once,
// with every character the slides show (a Chinese sentence, a tokenizer's vocabulary).
struct ComputedSlide {
    const lesson::OpenedSlide* slide;
    ComputeResult result;
};

}  // namespace

int run_lesson_snapshot(const SnapshotOptions& options) {
    Result<lesson::OpenedLesson> opened = lesson::open_lesson(options.lesson);
    if (!opened) return print_error(opened.message());
    // The lesson's own language unless --lang chose one.
    if (text::active().code() == "en") text::set_language(opened->lesson.language);
    for (const Message& problem : opened->problems) print_error(problem);
    if (opened->slides.empty()) return print_error(Message("lesson.none_open", {{"file", options.lesson}}));
    const Status dir = ensure_writable_dir(options.out_dir);
    if (!dir.ok()) return print_error(dir.message());
    HeadlessGl gl;
    if (!gl.ok()) {
        std::fprintf(stderr, "%s\n", kNoDisplayMessage);
        return 2;
    }
    AppState state = snapshot_state(options);
    std::vector<ComputedSlide> computed;
    for (const lesson::OpenedSlide& slide : opened->slides) {
        ComputeRequest request = apply_slide(state, slide);
        set_tour_words(state.tour, slide.slide, 0, 1);  // its words' characters join the font atlas
        request.focus_step.reset();  // every step: cells on other steps are checked against their panels
        computed.push_back({&slide, ComputeWorker::compute(request, 0)});
        if (!computed.back().result.error.empty()) return print_error(computed.back().result.error);
        accept_result(state, computed.back().result, 0.0);
        note_shown_glyphs(state);
    }
    const std::unique_ptr<OffscreenRenderer> offscreen = snapshot_renderer(options);
    OffscreenRenderer& renderer = *offscreen;
    if (!renderer.valid()) return print_error(renderer.error());
    HeatmapCache cache;
    PngEncoderPool pool;
    for (ComputedSlide& c : computed) {
        apply_slide(state, *c.slide);
        // A tour slide's bubble, with its words (state/tour.h); other slides have none.
        const int position = static_cast<int>(&c - computed.data());
        if (c.slide->slide.view.elements.empty()) state.tour = TourState{};
        else set_tour_words(state.tour, c.slide->slide, position, static_cast<int>(computed.size()));
        accept_result(state, std::move(c.result), 0.0);
        cache.reset(state.results.model, canvas_palette(state.settings.light_theme).masked);
        // A slide that points at parts of the window (a tour's) is drawn as the whole window.
        render_state(renderer, state, cache, c.slide->slide.view.elements.empty() ? SnapshotLayout::Slide : SnapshotLayout::FullWindow);
        pool.wait_for_room();
        pool.submit(options.out_dir + "/" + lesson::slide_file_name(c.slide->slide), renderer.pixel_width(),
                    renderer.pixel_height(), renderer.pixels());
    }
    if (!cache.error().empty()) return print_error(Message::plain(cache.error()));
    if (const Status written = pool.finish(); !written.ok()) return print_error(written.message());
    return opened->problems.empty() ? 0 : 2;
}

}  // namespace attn::gui
