// Animated exports: the frame plan, the GIF writer read back with giflib (frame count,
// size, delays, loop, colours), the MP4 writer checked with ffprobe where it is installed,
// and `attnviz snapshot --animate` end to end under Xvfb.
#include <doctest/doctest.h>

#include <gif_lib.h>

#include <cmath>
#include <cstdlib>
#include <filesystem>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "app/media/animation_writer.h"
#ifdef ATTNVIZ_HAS_WINDOW
#include "app/gui/compute/compute_worker.h"
#include "app/gui/export/export_runner.h"
#include "app/gui/gl/headless.h"
#include "app/gui/state/app_state.h"
#include "app/io/problem.h"
#endif
#include "app/media/frame_plan.h"
#include "app/media/palette.h"
#include "tests/shell_run.h"

using namespace attn;
using namespace attn::media;
namespace fs = std::filesystem;

namespace {

fs::path scratch(const std::string& name) { return attn::testing::scratch_dir("attnviz_animation_test", name); }

// A width x height RGBA frame: a horizontal gradient of `colours` bands from dark violet
// to yellow (a colour scale) over a flat background, shifted by `offset` pixels.
std::vector<unsigned char> gradient_frame(int width, int height, int colours, int offset = 0) {
    std::vector<unsigned char> rgba(static_cast<size_t>(width) * height * 4);
    for (int y = 0; y < height; ++y)
        for (int x = 0; x < width; ++x) {
            unsigned char* p = &rgba[(static_cast<size_t>(y) * width + x) * 4];
            const int band = ((x + offset) % width) * colours / width;
            const float t = static_cast<float>(band) / static_cast<float>(std::max(1, colours - 1));
            const bool background = y < height / 4;
            p[0] = background ? 20 : static_cast<unsigned char>(30 + 220 * t);
            p[1] = background ? 20 : static_cast<unsigned char>(10 + 225 * t * t);
            p[2] = background ? 30 : static_cast<unsigned char>(60 + 40 * (1 - t));
            p[3] = 255;
        }
    return rgba;
}

// A decoded GIF: its frames' rectangles, delays and the composed pictures.
struct DecodedGif {
    int width = 0, height = 0;
    bool loops = false;
    std::vector<int> delays;                       // hundredths of a second
    std::vector<std::vector<unsigned char>> rgb;   // each frame composed over the previous
};

DecodedGif decode_gif(const std::string& path) {
    DecodedGif out;
    int error = 0;
    GifFileType* gif = DGifOpenFileName(path.c_str(), &error);
    REQUIRE_MESSAGE(gif != nullptr, "giflib cannot open " << path);
    REQUIRE(DGifSlurp(gif) == GIF_OK);
    out.width = gif->SWidth;
    out.height = gif->SHeight;
    std::vector<unsigned char> canvas(static_cast<size_t>(out.width) * out.height * 3, 0);
    for (int i = 0; i < gif->ImageCount; ++i) {
        const SavedImage& image = gif->SavedImages[i];
        for (int e = 0; e < image.ExtensionBlockCount; ++e)
            if (image.ExtensionBlocks[e].Function == APPLICATION_EXT_FUNC_CODE &&
                std::string(reinterpret_cast<char*>(image.ExtensionBlocks[e].Bytes), 11) == "NETSCAPE2.0")
                out.loops = true;
        GraphicsControlBlock control{};
        REQUIRE(DGifSavedExtensionToGCB(gif, i, &control) == GIF_OK);
        out.delays.push_back(control.DelayTime);
        const ColorMapObject* map = image.ImageDesc.ColorMap ? image.ImageDesc.ColorMap : gif->SColorMap;
        REQUIRE(map != nullptr);
        const GifImageDesc& d = image.ImageDesc;
        for (int y = 0; y < d.Height; ++y)
            for (int x = 0; x < d.Width; ++x) {
                const int index = image.RasterBits[y * d.Width + x];
                if (index == control.TransparentColor) continue;  // the frame before shows through
                const GifColorType c = map->Colors[index];
                unsigned char* p = &canvas[(static_cast<size_t>(d.Top + y) * out.width + d.Left + x) * 3];
                p[0] = c.Red, p[1] = c.Green, p[2] = c.Blue;
            }
        out.rgb.push_back(canvas);
    }
    DGifCloseFile(gif, &error);
    return out;
}

// The largest channel difference between a decoded frame and the RGBA frame it came from.
int largest_difference(const std::vector<unsigned char>& rgb, const std::vector<unsigned char>& rgba) {
    int worst = 0;
    for (size_t i = 0, j = 0; i < rgb.size(); i += 3, j += 4)
        for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(int{rgb[i + c]} - int{rgba[j + c]}));
    return worst;
}

bool no_temporaries_in(const fs::path& dir) {
    for (const auto& entry : fs::directory_iterator(dir))
        if (entry.path().filename().string().find(".tmp-") != std::string::npos) return false;
    return true;
}

}  // namespace

TEST_CASE("the frame plan holds the source, animates at the speed and holds the end") {
    const AnimationTiming timing{10, 1.0f, 1.6f, 0.9f};
    const std::vector<PlannedFrame> one = plan_frames({5}, timing);
    REQUIRE(one.size() == 17);  // 16 moving frames at 10 fps over 1.6 s, then the end held
    CHECK(one.front().progress == 0.0f);
    CHECK(one.front().seconds == doctest::Approx(0.9 + 0.1));
    CHECK(one.back().progress == 1.0f);
    CHECK(one.back().seconds == doctest::Approx(0.9));
    CHECK(total_seconds(one) == doctest::Approx(0.9 + 1.6 + 0.9));
    for (size_t i = 1; i < one.size(); ++i) CHECK(one[i].progress > one[i - 1].progress);

    SUBCASE("twice the speed halves every time") {
        CHECK(total_seconds(plan_frames({5}, AnimationTiming{10, 2.0f, 1.6f, 0.9f})) == doctest::Approx(3.4 / 2.0).epsilon(0.05));
    }
    SUBCASE("all steps: the first step (no source) is shown finished, the others animate") {
        const std::vector<PlannedFrame> all = plan_frames({0, 1, 2}, timing);
        CHECK(all.size() == 1 + 2 * 17);
        CHECK(all.front().step == 0);
        CHECK(all.front().progress == 1.0f);
        CHECK(total_seconds(all) == doctest::Approx(0.9 + 2 * (1.6 + 0.9)));
    }
    CHECK(plan_frames({}, timing).empty());
}

TEST_CASE("a frame of at most 256 colours keeps them exactly, a colour scale of thousands within a few levels") {
    const int w = 256, h = 64;
    const std::vector<unsigned char> few = gradient_frame(w, h, 200);
    const IndexedImage exact = quantize(RgbaRegion{few.data(), w, 0, 0, w, h});
    CHECK(exact.palette.size() <= 256);
    int worst = 0;
    for (size_t i = 0; i < exact.indices.size(); ++i)
        for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(int{exact.palette[exact.indices[i]][static_cast<size_t>(c)]} - int{few[i * 4 + static_cast<size_t>(c)]}));
    CHECK(worst == 0);

    const std::vector<unsigned char> many = gradient_frame(1024, h, 1024);
    const IndexedImage reduced = quantize(RgbaRegion{many.data(), 1024, 0, 0, 1024, h});
    CHECK(reduced.palette.size() <= 256);
    worst = 0;
    for (size_t i = 0; i < reduced.indices.size(); ++i)
        for (int c = 0; c < 3; ++c) worst = std::max(worst, std::abs(int{reduced.palette[reduced.indices[i]][static_cast<size_t>(c)]} - int{many[i * 4 + static_cast<size_t>(c)]}));
    CAPTURE(worst);
    CHECK(worst <= 6);  // a scale of 1024 steps over ~220 levels: neighbours, never another stop
}

TEST_CASE("a GIF decodes with giflib to its frames, size, delays and loop, written under a temporary name") {
    const fs::path dir = scratch("gif");
    fs::create_directories(dir);
    const std::string path = (dir / "anim.gif").string();
    const int w = 320, h = 90;
    auto opened = open_animation(AnimationFormat::Gif, path, w, h, 30);
    REQUIRE_MESSAGE(opened.ok(), opened.error());
    std::unique_ptr<AnimationWriter> writer = std::move(opened.value());
    std::vector<std::vector<unsigned char>> frames;
    for (int i = 0; i < 4; ++i) frames.push_back(gradient_frame(w, h, 600, i * 7));
    REQUIRE(writer->add_frame(frames[0].data(), 1.0));
    REQUIRE(writer->add_frame(frames[1].data(), 1.0 / 30));
    REQUIRE(writer->add_frame(frames[2].data(), 1.0 / 30));
    REQUIRE(writer->add_frame(frames[3].data(), 1.0 / 30));
    REQUIRE(writer->add_frame(frames[3].data(), 0.9));  // held: merged into the frame before
    CHECK_FALSE(fs::exists(path));                       // only the temporary exists until finish
    REQUIRE(writer->finish());
    CHECK(no_temporaries_in(dir));

    const DecodedGif gif = decode_gif(path);
    CHECK(gif.width == w);
    CHECK(gif.height == h);
    CHECK(gif.loops);
    REQUIRE(gif.delays.size() == 4);
    // Delays are the rounded clock: 1.0 s, then 1/30 s each (3 or 4 hundredths, 10 over
    // three frames), the last held 1/30 + 0.9 s.
    CHECK(gif.delays[0] == 100);
    CHECK(gif.delays[1] + gif.delays[2] == 7);
    CHECK(gif.delays[3] == 93);
    // Held frames (the first and the last) are exact but for the palette; frames shown for
    // 1/30 s may lag what they stand for by the writer's 24 levels while the picture moves.
    for (size_t i = 0; i < 4; ++i) {
        CAPTURE(i);
        CHECK(largest_difference(gif.rgb[i], frames[i]) <= (i == 0 || i == 3 ? 8 : 24 + 8));
    }
}

// The bytes of a GIF of `frames`, each shown for `seconds` (a tenth: moving; a second: held).
static uintmax_t gif_bytes(const fs::path& path, const std::vector<std::vector<unsigned char>>& frames, int w, int h,
                           double seconds = 0.1) {
    auto opened = open_animation(AnimationFormat::Gif, path.string(), w, h, 30);
    REQUIRE_MESSAGE(opened.ok(), opened.error());
    for (const auto& frame : frames) REQUIRE(opened.value()->add_frame(frame.data(), seconds));
    REQUIRE(opened.value()->finish());
    return fs::file_size(path);
}

TEST_CASE("a GIF stores the pixels that did not change as transparent: two far-apart cells cost little") {
    const fs::path dir = scratch("unchanged");
    fs::create_directories(dir);
    const int w = 512, h = 384;
    const std::vector<unsigned char> first = gradient_frame(w, h, 900);
    std::vector<unsigned char> second = first;
    for (int y : {100, 360})  // two small squares in opposite corners: the changed rectangle is nearly the frame
        for (int x : {8, 490})
            for (int dy = 0; dy < 12; ++dy)
                for (int dx = 0; dx < 12; ++dx) {
                    if ((y == 100) != (x == 8)) continue;
                    unsigned char* p = &second[(static_cast<size_t>(y + dy) * w + x + dx) * 4];
                    p[0] = 250, p[1] = 250, p[2] = 250;
                }
    const uintmax_t one = gif_bytes(dir / "one.gif", {first}, w, h);
    const uintmax_t two = gif_bytes(dir / "two.gif", {first, second}, w, h);
    CAPTURE(one);
    CAPTURE(two);
    CHECK(two - one < one / 20);  // a whole second picture would cost about `one` again
    const DecodedGif gif = decode_gif((dir / "two.gif").string());
    REQUIRE(gif.rgb.size() == 2);
    CHECK(largest_difference(gif.rgb[1], second) <= 8);  // the kept pixels and the new squares both right
}

TEST_CASE("a held frame of more than 256 colours sends what changed, not every pixel the palette rounded") {
    // Before: a held frame was compared with the palette colours the viewer showed, which a
    // picture of 900 colours never matches exactly, so each held frame (a step's end, a
    // slide) sent the whole screen again: 1.5 MB of the head-split lesson's 4.9.
    const fs::path dir = scratch("held");
    fs::create_directories(dir);
    const int w = 512, h = 384;
    const std::vector<unsigned char> first = gradient_frame(w, h, 900);
    std::vector<unsigned char> second = first;
    for (int dy = 0; dy < 12; ++dy)
        for (int dx = 0; dx < 12; ++dx) {
            unsigned char* p = &second[(static_cast<size_t>(200 + dy) * w + 300 + dx) * 4];
            p[0] = 250, p[1] = 250, p[2] = 250;
        }
    const uintmax_t one = gif_bytes(dir / "one.gif", {first}, w, h, 1.0);
    const uintmax_t two = gif_bytes(dir / "two.gif", {first, second}, w, h, 1.0);
    CAPTURE(one);
    CAPTURE(two);
    CHECK(two - one < one / 20);
    const DecodedGif gif = decode_gif((dir / "two.gif").string());
    REQUIRE(gif.rgb.size() == 2);
    CHECK(largest_difference(gif.rgb[1], second) <= 8);  // the held picture is the drawn one but for the palette
}

TEST_CASE("a moving frame's coarser palette is made good by the held frame after it") {
    const fs::path dir = scratch("made_good");
    fs::create_directories(dir);
    const int w = 320, h = 90;
    auto opened = open_animation(AnimationFormat::Gif, (dir / "a.gif").string(), w, h, 20);
    REQUIRE_MESSAGE(opened.ok(), opened.error());
    std::vector<std::vector<unsigned char>> frames;
    for (int i = 0; i < 6; ++i) frames.push_back(gradient_frame(w, h, 900, i * 9));
    REQUIRE(opened.value()->add_frame(frames[0].data(), 1.0));
    for (int i = 1; i < 6; ++i) REQUIRE(opened.value()->add_frame(frames[static_cast<size_t>(i)].data(), 0.05));
    REQUIRE(opened.value()->add_frame(frames[5].data(), 0.9));  // the end held
    REQUIRE(opened.value()->finish());
    const DecodedGif gif = decode_gif((dir / "a.gif").string());
    REQUIRE(gif.rgb.size() == 6);
    CHECK(largest_difference(gif.rgb.back(), frames[5]) <= 8);
}

TEST_CASE("an unfinished or refused animation leaves no file behind") {
    const fs::path dir = scratch("unfinished");
    fs::create_directories(dir);
    {
        auto opened = open_animation(AnimationFormat::Gif, (dir / "a.gif").string(), 64, 64, 25);
        REQUIRE(opened.ok());
        const std::vector<unsigned char> frame = gradient_frame(64, 64, 10);
        REQUIRE(opened.value()->add_frame(frame.data(), 0.5));
    }  // cancelled: destroyed before finish()
    CHECK(fs::is_empty(dir));
    CHECK_FALSE(open_animation(AnimationFormat::Gif, (dir / "a.gif").string(), 64, 64, 60).ok());  // GIF: 50 fps at most
    const auto folder = open_animation(AnimationFormat::Gif, dir.string(), 64, 64, 25);
    REQUIRE_FALSE(folder.ok());
    CHECK(folder.message().id == "error.file.folder");
    CHECK_FALSE(open_animation(AnimationFormat::Gif, (dir / "no/such/folder.gif").string(), 64, 64, 25).ok());
    CHECK(fs::is_empty(dir));
}

TEST_CASE("without ffmpeg an MP4 export says what to install") {
    const char* old_path = std::getenv("PATH");
    const std::string saved = old_path ? old_path : "";
    const fs::path empty = scratch("no_ffmpeg");
    fs::create_directories(empty);
    setenv("PATH", empty.c_str(), 1);
    const auto opened = open_animation(AnimationFormat::Mp4, (empty / "a.mp4").string(), 64, 64, 30);
    setenv("PATH", saved.c_str(), 1);
    REQUIRE_FALSE(opened.ok());
    CHECK(opened.message().id == "error.animation.no_ffmpeg");
    CHECK(opened.error().find("apt-get install ffmpeg") != std::string::npos);
}

TEST_CASE("an MP4 is H.264 in yuv420p at even sizes with every frame, checked with ffprobe") {
    if (find_ffmpeg().empty() || std::system("command -v ffprobe >/dev/null 2>&1") != 0) {
        MESSAGE("ffmpeg or ffprobe not installed (make test-deps installs them): skipped");
        return;
    }
    const fs::path dir = scratch("mp4");
    fs::create_directories(dir);
    const std::string path = (dir / "anim.mp4").string();
    const int w = 101, h = 57;  // odd: padded to 102x58 for 4:2:0
    auto opened = open_animation(AnimationFormat::Mp4, path, w, h, 25);
    REQUIRE_MESSAGE(opened.ok(), opened.error());
    for (int i = 0; i < 10; ++i) {
        const std::vector<unsigned char> frame = gradient_frame(w, h, 50, i * 3);
        REQUIRE(opened.value()->add_frame(frame.data(), i == 9 ? 0.6 : 0.04));  // 9 frames + the last held 15
    }
    CHECK_FALSE(fs::exists(path));
    REQUIRE(opened.value()->finish());
    CHECK(no_temporaries_in(dir));
    const attn::testing::ShellRun probe = attn::testing::run_shell(
        "ffprobe -v error -select_streams v:0 -count_frames -show_entries "
        "stream=codec_name,pix_fmt,width,height,nb_read_frames,avg_frame_rate -of json '" + path + "'",
        "attnviz_animation_test");
    REQUIRE_MESSAGE(probe.exit_code == 0, probe.err);
    const nlohmann::json stream = nlohmann::json::parse(probe.out)["streams"][0];
    CHECK(stream["codec_name"] == "h264");
    CHECK(stream["pix_fmt"] == "yuv420p");
    CHECK(stream["width"] == 102);
    CHECK(stream["height"] == 58);
    CHECK(stream["avg_frame_rate"] == "25/1");
    CHECK(std::stoi(stream["nb_read_frames"].get<std::string>()) == 9 + 15);
}

#ifdef ATTNVIZ_HAS_WINDOW
TEST_CASE("attnviz snapshot --animate gif writes one step's animation with the plan's delays") {
    if (std::system("command -v xvfb-run >/dev/null 2>&1") != 0) {
        MESSAGE("xvfb-run not installed: skipped");
        return;
    }
    const fs::path dir = scratch("cli_gif");
    fs::create_directories(dir);
    const std::string path = (dir / "weights.gif").string();
    const attn::testing::ShellRun run = attn::testing::run_shell(
        "xvfb-run -a " + std::string(ATTNVIZ_BINARY) +
            " snapshot -L 4 -E 8 -H 2 --mask causal --step attn_weights --size 640x400 --fps 10 --animate gif --out '" + path + "'",
        "attnviz_animation_test");
    REQUIRE_MESSAGE(run.exit_code == 0, run.err);
    CHECK(run.out.find(path) != std::string::npos);
    CHECK(no_temporaries_in(dir));
    const DecodedGif gif = decode_gif(path);
    CHECK(gif.width == 640);
    CHECK(gif.height == 400);
    // The plan: the source held 0.9 + 0.1 s, 15 more moving frames of 0.1 s, the end held
    // 0.9 s. Frames that look the same merge, so the delays are checked by their sum.
    REQUIRE(gif.delays.size() >= 5);  // the four rows turn into probabilities one by one
    CHECK(gif.delays.size() <= 17);
    CHECK(gif.delays.front() >= 100);
    CHECK(gif.delays.back() >= 90);
    int total = 0;
    for (int d : gif.delays) total += d;
    CHECK(total == 340);
    CHECK(gif.rgb.front() != gif.rgb.back());  // it moved
}

TEST_CASE("attnviz snapshot --animate refuses a bad rate, scale or missing ffmpeg with exit code 2") {
    const fs::path dir = scratch("cli_bad");
    fs::create_directories(dir);
    const std::string base = "xvfb-run -a " + std::string(ATTNVIZ_BINARY) + " snapshot -L 3 -E 4 -H 2 --step attn_weights ";
    const auto run = [&](const std::string& args) { return attn::testing::run_shell(base + args, "attnviz_animation_test"); };
    CHECK(run("--animate gif --fps 60 --out " + (dir / "a.gif").string()).exit_code == 2);
    CHECK(run("--animate gif --scale 4 --out " + (dir / "a.gif").string()).exit_code == 2);
    CHECK(run("--animate webm --out " + (dir / "a.webm").string()).exit_code == 2);
    const attn::testing::ShellRun no_ffmpeg = attn::testing::run_shell(
        "env PATH=/nonexistent " + std::string(ATTNVIZ_BINARY) + " snapshot -L 3 -E 4 -H 2 --animate mp4 --out " + (dir / "a.mp4").string(),
        "attnviz_animation_test");
    CHECK(no_ffmpeg.exit_code == 2);
    CHECK(no_ffmpeg.err.find("ffmpeg") != std::string::npos);
    CHECK(fs::is_empty(dir));
}

// File > Export animation as the window loop runs it: ExportRunner draws a few frames
// after each window frame, the status line's progress moves, and the file appears only
// at the end; Cancel removes everything. Needs an X display: ctest runs it under xvfb-run
// (tests/gui/CMakeLists.txt, "gui animated export in the window").
TEST_CASE("the window's animated export advances frame by frame, and Cancel leaves nothing") {
    if (std::getenv("DISPLAY") == nullptr) {
        MESSAGE("no X display (ctest runs this under xvfb-run): skipped");
        return;
    }
    gui::HeadlessGl gl;
    REQUIRE(gl.ok());
    AttentionConfig config;
    config.seq_len = 4;
    config.hidden_dim = 8;
    config.num_heads = 2;
    Result<io::Problem> problem = io::build_problem(config, io::ProblemSources{});
    REQUIRE(problem.ok());
    gui::AppState state;
    gui::accept_result(state, gui::ComputeWorker::compute(problem.value(), 0, 512), 0.0);
    REQUIRE(state.results.trace);
    state.ui.playback.set_position(state.results.trace->index_of(StepId::AttnWeights), 1.0f);
    const fs::path dir = scratch("runner");
    fs::create_directories(dir);
    gui::ExportRequest request;
    request.kind = gui::ExportKind::Animation;
    request.canvas_only = false;  // the whole window, 480x300
    gui::ExportRunner runner;

    // One GL context for both parts (GLFW set up twice in one process is not reliable under Xvfb).
    {  // finished: the GIF is in place with the plan's delays at 25 frames per second
        request.path = (dir / "weights.gif").string();
        runner.start(state, request, 480, 300, 0.0);
        REQUIRE(state.jobs.export_progress.active);
        CHECK(state.jobs.export_progress.animation);
        int calls = 0;
        int last_next = -1;
        while (state.jobs.export_progress.active && calls < 2000) {
            CHECK_FALSE(fs::exists(request.path));
            CHECK(state.jobs.export_progress.next >= last_next);  // the bar never goes back
            last_next = state.jobs.export_progress.next;
            runner.continue_all(state, 0.0);
            ++calls;
        }
        CHECK(calls > 2);  // spread over window frames
        CHECK(state.ui.status.id == "export.wrote_animation");
        const DecodedGif gif = decode_gif(request.path);
        CHECK(gif.width == 480);
        CHECK(gif.height == 300);
        int total = 0;
        for (int d : gif.delays) total += d;
        CHECK(total == 340);  // 0.9 s held, 1.6 s moving, 0.9 s held at speed 1
    }
    {  // cancelled half-way: no file, no temporary
        fs::remove(dir / "weights.gif");
        request.path = (dir / "cancelled.gif").string();
        runner.start(state, request, 480, 300, 0.0);
        REQUIRE(state.jobs.export_progress.active);
        runner.continue_all(state, 0.0);
        runner.continue_all(state, 0.0);
        runner.cancel(state, 0.0);
        CHECK_FALSE(state.jobs.export_progress.active);
        CHECK(state.ui.status.id == "export.animation_cancelled");
        CHECK(fs::is_empty(dir));
    }
}
#endif
