// `attnviz snapshot --animate gif|mp4`: the steps' animations into one file.
#include <chrono>
#include <cstdio>

#include "app/gui/display/animation.h"
#include "app/gui/export/animation_export.h"
#include "app/gui/gl/headless.h"
#include "app/gui/export/snapshot.h"
#include "app/gui/export/snapshot_options.h"
#include "app/text/languages.h"
#include "app/text/text_template.h"

namespace attn::gui {

std::string animation_request_of(const SnapshotOptions& options, AnimationRequest& request) {
    if (!parse_animation_format(options.animation.format, request.format))
        return "--animate must be gif or mp4 (got '" + options.animation.format + "')";
    if (options.scale != 1 && options.scale != 2) return "--scale must be 1 or 2 for an animation";
    if (!(options.animation.speed >= 0.1f && options.animation.speed <= 8.0f)) return "--speed must be between 0.1 and 8";
    // Refused before anything is computed: a missing ffmpeg, a bad rate or target.
    if (request.format == media::AnimationFormat::Mp4 && media::find_ffmpeg().empty())
        return text::render(media::mp4_unavailable());
    request.path = options.out_dir;
    const int fps = options.animation.fps > 0 ? options.animation.fps : media::default_fps(request.format);
    request.timing = media::AnimationTiming{fps, options.animation.speed, Playback::kStepSeconds,
                                            Playback::kDwellSeconds};
    request.layout = snapshot_layout(options.layout);
    request.width = options.width;
    request.height = options.height;
    request.scale = options.scale;
    request.type_scale = options.presentation ? kPresentationTypeScale : 1.0f;
    return "";
}

int run_animation_snapshot(const io::Problem& problem, const SnapshotOptions& options) {
    const auto fail = [](const std::string& message) {
        std::fprintf(stderr, "attnviz: error: %s\n", message.c_str());
        return 2;
    };
    AnimationRequest request;
    if (const std::string refused = animation_request_of(options, request); !refused.empty()) return fail(refused);

    AppState state;
    if (const Status ready = prepare_snapshot_state(problem, options, state, request.steps); !ready)
        return fail(text::render(ready.message()));
    HeadlessGl gl;
    if (!gl.ok()) {
        std::fprintf(stderr, "%s\n", kNoDisplayMessage);
        return 2;
    }

    const auto started = std::chrono::steady_clock::now();
    AnimationExport job;
    if (const Status s = job.start(state, request); !s) return fail(text::render(s.message()));
    while (job.active())
        if (const Status s = job.advance(std::chrono::milliseconds(1000)); !s) return fail(text::render(s.message()));
    const double elapsed = std::chrono::duration<double>(std::chrono::steady_clock::now() - started).count();
    std::printf("%s\n", text::trf("cli.animation_written", {{"path", job.path()},
                                                            {"frames", job.frames_in_file()},
                                                            {"drawn", static_cast<int>(job.frame_count())},
                                                            {"seconds", text::fixed(job.seconds(), 2)},
                                                            {"width", job.pixel_width()},
                                                            {"height", job.pixel_height()},
                                                            {"elapsed", text::fixed(elapsed, 2)}})
                            .c_str());
    return 0;
}

}  // namespace attn::gui
