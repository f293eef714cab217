// A lesson slide can show one step of a generation: the option "decode-from" or a trained
// model's "generate" (with "temperature", "top_k", "top_p", "sample_seed") makes it, the
// view's "decode_step" chooses the step (0 the prefill), read and written like the other
// fields, checked against the steps the generation has, and drawn by the window's path.
#include <doctest/doctest.h>

#include <filesystem>
#include <fstream>

#include "app/gui/compute/compute_worker.h"
#include "app/gui/state/lesson_apply.h"
#include "app/lesson/lesson.h"
#include "core/model/generate.h"
#include "tests/shell_run.h"

using namespace attn;
using namespace attn::lesson;

namespace {

// A lesson file of `slides` in a fresh folder, opened.
Result<OpenedLesson> open_slides(const std::string& slides) {
    // A folder of this process's own: ctest -j runs this file's test cases side by side, and
    // one case removing a shared folder while another wrote its lesson there failed it.
    const std::filesystem::path dir = attn::testing::scratch_dir("attnviz_test_lesson_generation", "lesson");
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

TEST_CASE("a slide's generation fields are written and read back; the sampling ones only when not greedy's defaults") {
    Lesson lesson;
    Slide slide;
    slide.number = 1;
    slide.title = "sampled";
    slide.setup.model = "tiny-lm";
    slide.setup.generate = 8;
    slide.setup.sampling.temperature = 0.8f;
    slide.setup.sampling.top_k = 10;
    slide.setup.sampling.top_p = 0.9f;
    slide.setup.sampling.seed = 3;
    slide.view.decode_step = 5;
    lesson.slides.push_back(slide);
    const std::string text = write_lesson(lesson);
    for (const char* field : {"\"generate\": 8", "\"temperature\": 0.8", "\"top_k\": 10", "\"top_p\": 0.9", "\"sample_seed\": 3"}) {
        CAPTURE(field);
        CHECK(text.find(field) != std::string::npos);
    }
    const Result<LessonRead> read = read_lesson(text, "t.json");
    REQUIRE_MESSAGE(read.ok(), read.error());
    CHECK(read->lesson == lesson);
    lesson.slides.front().setup.sampling = SamplingSettings{};  // greedy: only "generate" is written
    const std::string greedy = write_lesson(lesson);
    CHECK(greedy.find("\"generate\": 8") != std::string::npos);
    CHECK(greedy.find("temperature") == std::string::npos);
    CHECK(greedy.find("top_k") == std::string::npos);
}

TEST_CASE("a slide shows step 5 of a model's generation, the same tokens as the command line's") {
    const Result<OpenedLesson> opened = open_slides(
        R"([{"title": "step 5", "model": "tiny-lm", "sentence": "the dog", "generate": 6, "temperature": 0.8, "top_k": 10, "sample_seed": 3,
             "step": "k_cache", "decode_step": 5}])");
    REQUIRE_MESSAGE(opened.ok(), opened.error());
    REQUIRE_MESSAGE(opened->problems.empty(), english(opened->problems.front()));
    REQUIRE(opened->slides.size() == 1);
    gui::AppState state;
    const gui::ComputeRequest request = gui::apply_slide(state, opened->slides.front());
    CHECK(state.session.generating);
    const gui::ComputeResult result = gui::ComputeWorker::compute(request, 1);
    REQUIRE_MESSAGE(result.error.empty(), english(result.error));
    REQUIRE(result.decode);
    REQUIRE(result.decode->generation);
    CHECK(result.decode_step == 5);
    CHECK(result.trace->decode_position() == 3 + 5 - 1);  // <bos> the dog, then step 5
    SamplingSettings s;
    s.temperature = 0.8f;
    s.top_k = 10;
    s.seed = 3;
    const Result<GenerationRun> reference = generate(*result.decode->problem->model, result.decode->problem->model_tokens.ids, 6, s);
    REQUIRE(reference.ok());
    CHECK(result.decode->generation->ids == reference->ids);
}

TEST_CASE("bad generation fields are refused with the slide and the field named") {
    const Result<OpenedLesson> opened = open_slides(
        R"([{"title": "a", "model": "tiny-lm", "generate": 4, "top_p": 0},
            {"title": "b", "model": "tiny-lm", "temperature": 0.5},
            {"title": "c", "model": "tiny-lm", "generate": 0},
            {"title": "d", "model": "tiny-lm", "generate": 4, "temperature": -1},
            {"title": "e", "model": "tiny-lm", "generate": 4, "decode_step": 5},
            {"title": "f", "model": "tiny-lm", "generate": 4, "top_k": "ten"}])");
    REQUIRE_MESSAGE(opened.ok(), opened.error());
    CHECK(opened->slides.empty());
    REQUIRE(opened->problems.size() == 6);
    std::vector<std::string> said;
    for (const Message& m : opened->problems) said.push_back(english(m));
    CAPTURE(said);
    CHECK(said[0].rfind("slide 1: \"top_p\": top_p keeps the likeliest tokens", 0) == 0);
    CHECK(said[1].rfind("slide 2: \"temperature\": this field says how a generation draws its tokens", 0) == 0);
    CHECK(said[2].rfind("slide 3: \"generate\":", 0) == 0);
    CHECK(said[3].rfind("slide 4: \"temperature\":", 0) == 0);
    CHECK(said[4].rfind("slide 5: \"decode_step\": this generation has decode steps 1..4", 0) == 0);
    CHECK(said[5].rfind("slide 6: \"top_k\":", 0) == 0);
}
