// Making a lesson in the window, without a display: capture_slide is the inverse of
// apply_slide on every shipped slide, and the slide edits of LessonDoc (add, update,
// delete, move, title, note) undo and redo, and save under a temporary name.
#include <doctest/doctest.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "app/gui/state/capture_slide.h"
#include "app/gui/state/lesson_apply.h"
#include "app/gui/state/lesson_doc.h"
#include "app/io/file_util.h"
#include "core/config_fields.h"

#include <unistd.h>

using namespace attn;
using namespace attn::gui;
namespace fs = std::filesystem;

namespace {

void show(AppState& state, const lesson::OpenedSlide& slide) {
    const ComputeRequest request = apply_slide(state, slide);
    accept_result(state, ComputeWorker::compute(request, 1), 0.0);
}

lesson::OpenedSlide opened(lesson::Slide slide) {
    const Result<io::Problem> problem = lesson::slide_problem(slide);
    REQUIRE_MESSAGE(problem.ok(), problem.error());
    return {std::move(slide), problem.value()};
}

lesson::OpenedSlide titled(const std::string& title, StepId step) {
    lesson::Slide slide;
    slide.title = title;
    slide.setup.options = {{"num-heads", {lesson::OptionValue::Kind::Number, "2"}}};
    slide.view.step = step;
    return opened(slide);
}

// Every field of the configuration as the command line writes it.
std::vector<std::string> fields_of(const AttentionConfig& config) {
    std::vector<std::string> out;
    for (const ConfigField& field : config_fields()) out.push_back(std::string(field.name) + "=" + format_field(field, config));
    return out;
}

std::vector<std::string> titles(const LessonDoc& doc) {
    std::vector<std::string> out;
    for (const lesson::OpenedSlide& s : doc.opened.slides) out.push_back(s.slide.title);
    return out;
}

}  // namespace

TEST_CASE("capture_slide after apply_slide gives every shipped slide back, field for field") {
    int slides = 0;
    for (const auto& entry : fs::directory_iterator(std::string(ATTNVIZ_SOURCE_DIR) + "/assets/lessons")) {
        if (entry.path().extension() != ".json") continue;
        const Result<lesson::OpenedLesson> lesson = lesson::open_lesson(entry.path().string());
        REQUIRE_MESSAGE(lesson.ok(), lesson.error());
        AppState state;
        for (const lesson::OpenedSlide& slide : lesson->slides) {
            CAPTURE(entry.path().filename().string());
            CAPTURE(slide.slide.number);
            // The panels a slide leaves out stay as they were: the capture names both.
            lesson::Slide want = slide.slide;
            want.view.panels.emplace("storage", state.ui.show_storage);
            want.view.panels.emplace("code", state.ui.code.show);
            show(state, slide);
            lesson::Slide got = capture_slide(state, slide.slide.title, slide.slide.note);
            got.number = want.number;
            CHECK(write_lesson(lesson::Lesson{1, "", "en", 0, {got}}) == write_lesson(lesson::Lesson{1, "", "en", 0, {want}}));
            ++slides;
        }
    }
    CHECK(slides > 30);
}

TEST_CASE("a setup read back from the session computes what the shipped slide computes") {
    // setup_of alone (not the slide's own wording): the same configuration and words.
    int slides = 0;
    for (const auto& entry : fs::directory_iterator(std::string(ATTNVIZ_SOURCE_DIR) + "/assets/lessons")) {
        if (entry.path().extension() != ".json" || entry.path().string().find(".en.") == std::string::npos) continue;
        const Result<lesson::OpenedLesson> lesson = lesson::open_lesson(entry.path().string());
        REQUIRE(lesson.ok());
        for (const lesson::OpenedSlide& slide : lesson->slides) {
            CAPTURE(entry.path().filename().string());
            CAPTURE(slide.slide.number);
            AppState state;
            show(state, slide);
            lesson::Slide again = slide.slide;
            again.setup = setup_of(state.session);
            const Result<io::Problem> problem = lesson::slide_problem(again);
            REQUIRE_MESSAGE(problem.ok(), problem.error());
            CHECK(fields_of(problem->config) == fields_of(slide.problem.config));
            CHECK(problem->query_tokens == slide.problem.query_tokens);
            ++slides;
        }
    }
    CHECK(slides > 30);
}

TEST_CASE("slide edits go in order, and undo and redo walk them back and forth") {
    LessonDoc doc;
    new_lesson(doc, "en");
    add_slide(doc, titled("a", StepId::Input));
    add_slide(doc, titled("b", StepId::Q));
    CHECK(titles(doc) == std::vector<std::string>{"a", "b"});
    CHECK(doc.current == 1);
    doc.current = 0;
    add_slide(doc, titled("c", StepId::AttnScores));  // after the current one
    CHECK(titles(doc) == std::vector<std::string>{"a", "c", "b"});
    move_slide(doc, 2, 0);
    CHECK(titles(doc) == std::vector<std::string>{"b", "a", "c"});
    CHECK(doc.current == 0);
    // Typing a title letter by letter is one edit.
    set_slide_title(doc, 1, "A");
    set_slide_title(doc, 1, "Ab");
    set_slide_note(doc, 1, "say this");
    doc.current = 2;
    delete_slide(doc);
    CHECK(titles(doc) == std::vector<std::string>{"b", "Ab"});
    CHECK(doc.current == 1);
    CHECK(doc.dirty);
    REQUIRE(undo_lesson_edit(doc));  // the delete
    CHECK(titles(doc) == std::vector<std::string>{"b", "Ab", "c"});
    REQUIRE(undo_lesson_edit(doc));  // the note
    CHECK(doc.opened.slides[1].slide.note.empty());
    REQUIRE(undo_lesson_edit(doc));  // the whole title
    CHECK(titles(doc) == std::vector<std::string>{"b", "a", "c"});
    REQUIRE(redo_lesson_edit(doc));
    CHECK(titles(doc) == std::vector<std::string>{"b", "Ab", "c"});
    REQUIRE(undo_lesson_edit(doc));
    REQUIRE(undo_lesson_edit(doc));  // the move
    CHECK(titles(doc) == std::vector<std::string>{"a", "c", "b"});
    update_slide(doc, titled("u", StepId::Out));  // a new edit ends the redo list
    CHECK_FALSE(redo_lesson_edit(doc));
    while (undo_lesson_edit(doc)) {
    }
    CHECK(doc.opened.slides.empty());
}

TEST_CASE("a saved lesson opens with the same slides, and a failed save leaves the old file") {
    const fs::path dir = fs::temp_directory_path() / ("attnviz_lesson_edit_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    LessonDoc doc;
    new_lesson(doc, "en");
    doc.opened.lesson.title = "made in the window";
    add_slide(doc, titled("first", StepId::Input));
    add_slide(doc, titled("second", StepId::AttnWeights));
    set_slide_note(doc, 1, "the weights");
    const std::string path = (dir / "made.json").string();
    REQUIRE(save_lesson(doc, path).ok());
    CHECK_FALSE(doc.dirty);
    CHECK(doc.path == path);
    const Result<lesson::OpenedLesson> back = lesson::open_lesson(path);
    REQUIRE_MESSAGE(back.ok(), back.error());
    CHECK(back->problems.empty());
    CHECK(back->lesson == lesson_of(doc));
    // A folder where the file should go: refused, the folder untouched, no temporary left.
    LessonDoc other = doc;
    const fs::path folder = dir / "a_folder.json";
    fs::create_directories(folder);
    CHECK_FALSE(save_lesson(other, folder.string()).ok());
    CHECK(fs::is_directory(folder));
    CHECK(std::distance(fs::directory_iterator(dir), fs::directory_iterator{}) == 2);
    fs::remove_all(dir);
}

#ifdef ATTNVIZ_HAS_WINDOW
#include "app/gui/export/snapshot.h"
#include "app/gui/gl/headless.h"
#include "app/gui/kit/fonts_theme.h"
#include "tests/gui/checker/image_diff.h"

namespace {

// The state drawn as a 640x400 slide picture (title, canvas, explanation).
attn::testing::RgbaImage picture_of(OffscreenRenderer& renderer, AppState& state) {
    HeatmapCache cache;
    cache.reset(state.results.model, canvas_palette(false).masked);
    render_state(renderer, state, cache, SnapshotLayout::Slide);
    return {renderer.pixel_width(), renderer.pixel_height(), renderer.pixels()};
}

}  // namespace

// Needs an X display: ctest runs it under xvfb-run ("gui lesson round trip", tests/gui/CMakeLists.txt).
TEST_CASE("a lesson made from screens, saved and opened, draws every slide as the screen was") {
    if (std::getenv("DISPLAY") == nullptr) {
        MESSAGE("no X display (ctest runs this under xvfb-run): skipped");
        return;
    }
    HeadlessGl gl;
    REQUIRE(gl.ok());
    OffscreenRenderer renderer(640, 400, 1.0f, false);
    REQUIRE(renderer.valid());
    // Screens with a model, a recipe, pinned cells, a head, a moment and the code panel.
    std::vector<lesson::OpenedSlide> screens;
    for (const char* name : {"trained-heads.en.json", "llama-attention.en.json", "scores-to-weights.en.json"}) {
        const Result<lesson::OpenedLesson> shipped = lesson::open_lesson(std::string(ATTNVIZ_SOURCE_DIR) + "/assets/lessons/" + name);
        REQUIRE(shipped.ok());
        for (size_t i = 0; i < shipped->slides.size(); i += 3) screens.push_back(shipped->slides[i]);
    }
    AppState window;
    LessonDoc doc;
    new_lesson(doc, "en");
    std::vector<attn::testing::RgbaImage> before;
    for (const lesson::OpenedSlide& screen : screens) {
        show(window, screen);
        window.ui.code.show = before.size() % 2 == 1;  // a panel changed by hand after the slide
        before.push_back(picture_of(renderer, window));
        lesson::Slide slide = capture_slide(window, new_slide_title(doc), "note " + std::to_string(before.size()));
        const Result<io::Problem> problem = lesson::slide_problem(slide);
        REQUIRE_MESSAGE(problem.ok(), problem.error());
        add_slide(doc, {slide, problem.value()});
    }
    const fs::path dir = fs::temp_directory_path() / ("attnviz_lesson_round_trip_" + std::to_string(::getpid()));
    fs::create_directories(dir);
    REQUIRE(save_lesson(doc, (dir / "round_trip.json").string()).ok());
    const Result<lesson::OpenedLesson> back = lesson::open_lesson((dir / "round_trip.json").string());
    REQUIRE_MESSAGE(back.ok(), back.error());
    REQUIRE(back->slides.size() == before.size());
    for (size_t i = 0; i < before.size(); ++i) {
        CAPTURE(i);
        AppState fresh;
        show(fresh, back->slides[i]);
        const attn::testing::DiffReport diff = attn::testing::compare_images(picture_of(renderer, fresh), before[i]);
        CAPTURE(diff.differing);
        CAPTURE(diff.largest);
        CHECK(diff.matches);
    }
    fs::remove_all(dir);
}

// Not a timed test: a benchmark that prints figures (README, "Benchmarks"). Run with
//   xvfb-run -a ./build/attnviz_tests -tc="*next slide benchmark*" --no-skip
// Each step into the next slide of every shipped English lesson as the window takes it:
// apply_slide, the forward and display model of the slide's step (the worker's work), and
// the first 1280x720 frame drawn with the slide's textures baked.
TEST_CASE("next slide benchmark: from pressing Page Down to the slide drawn" * doctest::skip()) {
    if (std::getenv("DISPLAY") == nullptr) return;
    HeadlessGl gl;
    REQUIRE(gl.ok());
    OffscreenRenderer renderer(1280, 720, 1.0f, false);
    std::vector<double> all_ms;
    for (const auto& entry : fs::directory_iterator(std::string(ATTNVIZ_SOURCE_DIR) + "/assets/lessons")) {
        if (entry.path().string().find(".en.json") == std::string::npos) continue;
        const Result<lesson::OpenedLesson> lesson = lesson::open_lesson(entry.path().string());
        REQUIRE(lesson.ok());
        AppState state;
        HeatmapCache cache;
        std::string line = entry.path().filename().string() + ":";
        for (const lesson::OpenedSlide& slide : lesson->slides) {
            const auto start = std::chrono::steady_clock::now();
            const ComputeRequest request = apply_slide(state, slide);
            accept_result(state, ComputeWorker::compute(request, 1), 0.0);
            cache.reset(state.results.model, canvas_palette(false).masked);
            render_state(renderer, state, cache, SnapshotLayout::FullWindow);
            const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
            all_ms.push_back(ms);
            line += " " + std::to_string(static_cast<int>(std::lround(ms)));
        }
        MESSAGE(line << " ms");
    }
    std::sort(all_ms.begin(), all_ms.end());
    REQUIRE_FALSE(all_ms.empty());
    MESSAGE("next slide, " << all_ms.size() << " slides: median " << all_ms[all_ms.size() / 2] << " ms, slowest " << all_ms.back()
                           << " ms");
}
#endif
