// A lesson slide can show one step of a generation: the option "decode-from" makes it, the
// view's "decode_step" chooses the step (0 the prefill), read and written like the other
// fields, checked against the steps the generation has, and drawn by the window's path.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "app/gui/compute/compute_worker.h"
#include "app/gui/state/lesson_apply.h"
#include "app/lesson/lesson.h"

using namespace attn;
using namespace attn::lesson;

namespace {

// A lesson file of `slides` in a fresh folder, opened.
Result<OpenedLesson> open_slides(const std::string& slides) {
    const std::filesystem::path dir = std::filesystem::temp_directory_path() / "attnviz_test_lesson_generation";
    std::filesystem::create_directories(dir);
    const std::filesystem::path file = dir / "generation.json";
    std::ofstream(file) << R"({"version": 1, "title": "t", "slides": )" + slides + "}";
    Result<OpenedLesson> opened = open_lesson(file.string());
    std::filesystem::remove_all(dir);
    return opened;
}

const char* kGeneration = R"("options": {"mask": "causal", "seq-len": "8", "hidden-dim": "8", "num-heads": "2", "decode-from": "3", "rope": true})";

}  // namespace

TEST_CASE("a slide's decode step is written and read back, and left out when it is the prefill") {
    Lesson lesson;
    Slide slide;
    slide.number = 1;
    slide.title = "step 5";
    slide.setup.options = {{"decode-from", {OptionValue::Kind::Number, "3"}}, {"mask", {OptionValue::Kind::Text, "causal"}}};
    slide.view.decode_step = 5;
    lesson.slides.push_back(slide);
    const std::string text = write_lesson(lesson);
    CHECK(text.find("\"decode_step\": 5") != std::string::npos);
    const Result<LessonRead> read = read_lesson(text, "t.json");
    REQUIRE_MESSAGE(read.ok(), read.error());
    CHECK(read->lesson == lesson);
    lesson.slides.front().view.decode_step = 0;
    CHECK(write_lesson(lesson).find("decode_step") == std::string::npos);
}

TEST_CASE("a slide shows step 5 of a generation, and the window's request carries it") {
    const Result<OpenedLesson> opened =
        open_slides(std::string(R"([{"title": "step 5", "step": "k_cache", "decode_step": 5, )") + kGeneration + "}]");
    REQUIRE_MESSAGE(opened.ok(), opened.error());
    REQUIRE_MESSAGE(opened->problems.empty(), english(opened->problems.front()));
    REQUIRE(opened->slides.size() == 1);
    gui::AppState state;
    const gui::ComputeRequest request = gui::apply_slide(state, opened->slides.front());
    CHECK(request.decode_step == 5);
    const gui::ComputeResult result = gui::ComputeWorker::compute(request, 1);
    REQUIRE_MESSAGE(result.error.empty(), english(result.error));
    CHECK(result.decode_step == 5);
    CHECK(result.trace->decode_position() == 7);  // P + 5 - 1
    CHECK(result.trace->find(StepId::KCache)->tensor.dim(2) == 8);
}

TEST_CASE("a slide's decode step needs decode-from and must be one of its steps") {
    const Result<OpenedLesson> opened = open_slides(std::string(R"([{"title": "a", "decode_step": 2}, {"title": "b", "decode_step": 6, )") +
                                                    kGeneration + R"(}, {"title": "c", "decode_step": -1}])");
    REQUIRE_MESSAGE(opened.ok(), opened.error());
    CHECK(opened->slides.empty());
    REQUIRE(opened->problems.size() == 3);
    CAPTURE(english(opened->problems[1]));
    CHECK(english(opened->problems[0]).rfind("slide 1: \"decode_step\": a decode step needs a generation", 0) == 0);
    CHECK(english(opened->problems[1]).rfind("slide 2: \"decode_step\": this generation has decode steps 1..5", 0) == 0);
    CHECK(english(opened->problems[2]).rfind("slide 3: \"decode_step\":", 0) == 0);
}
