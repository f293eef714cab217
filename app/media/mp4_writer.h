// The MP4 side of open_animation (animation_writer.h): raw RGBA frames piped into the
// `ffmpeg` program, which encodes H.264 in yuv420p (BT.709), padded to even sizes, with
// the index at the front (+faststart) so browsers and presentation software play it.
#pragma once

#include <memory>
#include <string>

#include "app/media/animation_writer.h"

namespace attn::media {

Result<std::unique_ptr<AnimationWriter>> open_mp4(const std::string& path, int width, int height, int fps);

}  // namespace attn::media
