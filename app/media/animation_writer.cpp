#include "app/media/animation_writer.h"

#include "app/media/gif_writer.h"
#include "app/media/mp4_writer.h"

namespace attn::media {

Result<std::unique_ptr<AnimationWriter>> open_animation(AnimationFormat format, const std::string& path, int width,
                                                        int height, int fps) {
    using R = Result<std::unique_ptr<AnimationWriter>>;
    const bool gif = format == AnimationFormat::Gif;
    const int max_fps = gif ? kMaxGifFps : kMaxMp4Fps;
    if (fps < 1 || fps > max_fps)
        return R::failure(Message("error.animation.fps", {{"fps", fps}, {"format", gif ? "GIF" : "MP4"}, {"max", max_fps}}));
    if (width < 1 || height < 1 || width > 8192 || height > 8192)
        return R::failure(Message("error.animation.size", {{"width", width}, {"height", height}}));
    return gif ? open_gif(path, width, height) : open_mp4(path, width, height, fps);
}

}  // namespace attn::media
