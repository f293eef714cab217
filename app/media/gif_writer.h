// The GIF side of open_animation (animation_writer.h): GIF89a through giflib, looping, a
// local palette per frame (palette.h), and only the rectangle that changed since the
// previous frame is stored (the rest of the picture stays, disposal "do not dispose").
#pragma once

#include <memory>
#include <string>

#include "app/media/animation_writer.h"

namespace attn::media {

Result<std::unique_ptr<AnimationWriter>> open_gif(const std::string& path, int width, int height);

}  // namespace attn::media
