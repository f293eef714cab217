// `attnviz snapshot --animate gif --lesson FILE`: every slide's step animation in order,
// each slide's end held, in one GIF, decoded here with giflib.
#include <doctest/doctest.h>

#include <gif_lib.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "app/gui/display/animation.h"
#include "app/lesson/lesson.h"
#include "app/media/frame_plan.h"
#include "tests/shell_run.h"

using namespace attn;
namespace fs = std::filesystem;

namespace {

// The GIF's frame delays, in hundredths of a second.
std::vector<int> gif_delays(const std::string& path) {
    std::vector<int> delays;
    int error = 0;
    GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
    REQUIRE_MESSAGE(gif != nullptr, "giflib cannot open " << path);
    REQUIRE(DGifSlurp(gif) == GIF_OK);
    for (int i = 0; i < gif->ImageCount; ++i) {
        GraphicsControlBlock control{};
        REQUIRE(DGifSavedExtensionToGCB(gif, i, &control) == GIF_OK);
        delays.push_back(control.DelayTime);
    }
    DGifCloseFile(gif, &error);
    return delays;
}

lesson::Slide slide_on(StepId step) {
    lesson::Slide slide;
    slide.title = step_name(step);
    slide.setup.options = {{"seq-len", {lesson::OptionValue::Kind::Number, "4"}},
                           {"hidden-dim", {lesson::OptionValue::Kind::Number, "8"}}};
    slide.view.step = step;
    return slide;
}

}  // namespace

TEST_CASE("attnviz snapshot --animate gif --lesson plays every slide's step in order with its end held") {
    if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0) {
        MESSAGE("xvfb-run not installed: skipped");
        return;
    }
    const fs::path dir = attn::testing::scratch_dir("attnviz_lesson_animation_test", "gif");
    fs::create_directories(dir);
    lesson::Lesson made;
    made.slides = {slide_on(StepId::AttnWeights), slide_on(StepId::Q), slide_on(StepId::Out)};
    const std::string lesson_path = (dir / "three.json").string();
    std::ofstream(lesson_path) << lesson::write_lesson(made);
    const std::string gif = (dir / "three.gif").string();
    const attn::testing::ShellRun run = attn::testing::run_shell(
        "xvfb-run -a " + std::string(ATTNVIZ_BINARY) + " snapshot --lesson '" + lesson_path +
            "' --size 640x400 --fps 10 --animate gif --out '" + gif + "'",
        "attnviz_lesson_animation_test");
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    const std::vector<int> delays = gif_delays(gif);
    // Each slide is one step's plan (its source held, the animation, its end held); frames
    // that look the same merge, so the count is at most the plan's and the time is exact.
    const media::AnimationTiming timing{10, 1.0f, gui::Playback::kStepSeconds, gui::Playback::kDwellSeconds};
    const std::vector<media::PlannedFrame> one = media::plan_frames({1}, timing);
    CHECK(delays.size() >= 3 * 3);  // held start, at least one moving frame, held end per slide
    CHECK(delays.size() <= 3 * one.size());
    int total = 0;
    for (int d : delays) total += d;
    CHECK(std::abs(total - static_cast<int>(std::lround(3 * media::total_seconds(one) * 100))) <= 1);
    // Three held ends: at least three frames of a pause or more.
    int held = 0;
    for (int d : delays) held += d >= std::lround(gui::Playback::kDwellSeconds * 100) ? 1 : 0;
    CHECK(held >= 3);
    fs::remove_all(dir);
}
