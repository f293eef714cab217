// Animated files from RGBA frames: GIF through giflib, MP4 (H.264) through the ffmpeg
// program. The file is written under a temporary name beside its target and renamed into
// place by finish(); a writer destroyed before that removes what it wrote.
#pragma once

#include <memory>
#include <string>

#include "core/result.h"

namespace attn::media {

enum class AnimationFormat { Gif, Mp4 };

class AnimationWriter {
public:
    virtual ~AnimationWriter() = default;
    // Adds an RGBA8 frame (top row first, the size the writer was opened with) shown for
    // `seconds`. Consecutive equal frames cost little: GIF merges them into one frame
    // with a longer delay; MP4 repeats it at the frame rate.
    virtual Status add_frame(const unsigned char* rgba, double seconds) = 0;
    // Completes the file and renames it over the target.
    virtual Status finish() = 0;
    // Frames in the file so far (GIF: after merging equal ones; MP4: at the frame rate).
    virtual int frames_written() const = 0;
};

// Opens a writer for `path` (width x height pixels, `fps` frames per second: how finely
// frame times are kept). A clear message when the target cannot be written, the size or
// rate is out of range, or (MP4) ffmpeg is not installed.
Result<std::unique_ptr<AnimationWriter>> open_animation(AnimationFormat format, const std::string& path, int width,
                                                        int height, int fps);

// GIF delays are in hundredths of a second and players treat delays under 2 as 10, so
// GIFs take at most 50 frames per second.
constexpr int kMaxGifFps = 50;
constexpr int kMaxMp4Fps = 120;

// Frames per second of an export that does not say: GIF 20 (every delay exactly 5
// hundredths; each moving frame costs bytes, and at 30 the head-split lesson's GIF was
// 3.7 MB instead of 2.9), MP4 30 (its encoder stores what did not move for almost nothing).
constexpr int default_fps(AnimationFormat format) { return format == AnimationFormat::Gif ? 20 : 30; }

// "ffmpeg" as found on PATH ("" when it is not installed).
std::string find_ffmpeg();

// Why there is no MP4 export when find_ffmpeg() is "": ffmpeg is not installed, or (in the
// browser, browser_media.cpp) a page starts no programs.
Message mp4_unavailable();

}  // namespace attn::media
