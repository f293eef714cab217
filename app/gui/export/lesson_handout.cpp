// `attnviz snapshot --lesson FILE --handout out.pdf` (and Lesson > Export handout, which
// runs it): every slide drawn at twice its size, as presentation draws its canvas, then
// put on an A4 page with its title, note, formula and explanation (app/media/handout_pdf.h).
#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdio>
#include <cstring>

#include "app/gui/export/lesson_run.h"
#include "app/gui/export/snapshot.h"
#include "app/gui/export/snapshot_options.h"
#include "app/gui/gl/headless.h"
#include "app/io/file_util.h"
#include "app/media/handout_pdf.h"
#include "app/text/languages.h"
#include "app/text/step_text.h"
#include "app/text/text_template.h"

namespace attn::gui {
namespace {

int print_error(const Message& message) {
    std::fprintf(stderr, "attnviz: error: %s\n", text::render(message).c_str());
    return 2;
}

// Print resolution: a 1280x720 slide drawn at 2x is 2560 pixels across the page's 18 cm,
// about 360 dots per inch.
constexpr int kHandoutScale = 2;

// The slide on the run's state as one page: its picture (the canvas under its title strip,
// in presentation type) and its words.
media::HandoutPage page_of(LessonRun& run, const ComputedSlide& c, OffscreenRenderer& renderer, HeatmapCache& cache) {
    render_state(renderer, run.state, cache, SnapshotLayout::CanvasOnly);
    media::HandoutPage page;
    page.title = c.slide->slide.title;
    page.note = c.slide->slide.note;
    const Trace& trace = *run.state.results.trace;
    const int step = run.state.ui.playback.step();
    if (step >= 0 && step < static_cast<int>(trace.steps.size())) {
        const text::StepText words = text::describe_step(trace.steps[static_cast<size_t>(step)], trace);
        page.formula = words.formula;
        page.explanation = words.explanation;
    }
    page.rgba = renderer.pixels();
    page.width = renderer.pixel_width();
    page.height = renderer.pixel_height();
    return page;
}

// The target is tried before the slides are drawn (a new file created and removed beside
// it), so a missing or read-only folder is said at once.
Status writable_now(const std::string& path) {
    if (Status s = io::check_writable_target(path); !s) return s;
    const std::string probe = io::temporary_name_for(path);
    const int fd = ::open(probe.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return Status::failure(Message("error.file.write", {{"path", path}, {"reason", std::strerror(errno)}}));
    ::close(fd);
    ::unlink(probe.c_str());
    return ok_status();
}

}  // namespace

int run_lesson_handout(const SnapshotOptions& options) {
    if (Status target = writable_now(options.handout); !target) return print_error(target.message());
    LessonRun run;
    if (const int code = prepare_lesson(options, run)) return code;
    SnapshotOptions presenting = lesson_picture_options(options, run);  // the slide's type as the class saw it
    presenting.scale = kHandoutScale;
    HeadlessGl gl;
    if (!gl.ok()) {
        std::fprintf(stderr, "%s\n", kNoDisplayMessage);
        return 2;
    }
    const std::unique_ptr<OffscreenRenderer> renderer = snapshot_renderer(presenting);
    if (!renderer->valid()) return print_error(renderer->error());
    HeatmapCache cache;
    std::vector<media::HandoutPage> pages;
    for (ComputedSlide& c : run.computed) {
        show_computed(run, c, cache);
        pages.push_back(page_of(run, c, *renderer, cache));
    }
    if (!cache.error().empty()) return print_error(Message::plain(cache.error()));
    const std::string title = run.opened.lesson.title.empty() ? options.lesson : run.opened.lesson.title;
    const Status written = media::write_handout(options.handout, title, pages,
                                                {text::tr("handout.note"), text::tr("handout.formula")}, text::active().code());
    if (!written) return print_error(written.message());
    std::printf("%s\n", text::trf("lesson.handout.done", {{"path", options.handout}}).c_str());
    return run.opened.problems.empty() ? 0 : 2;
}

}  // namespace attn::gui
