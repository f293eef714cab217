// The browser build's side of attnviz_media (app/media/CMakeLists.txt): the desktop's
// GIF (giflib + libimagequant), MP4 (the ffmpeg program) and PDF handout (cairo + pango)
// writers have no WebAssembly build here, so each says so, in the window's language,
// where the user asked for it. The interfaces are the desktop's, unchanged.
#include "app/media/gif_writer.h"
#include "app/media/handout_pdf.h"
#include "app/media/mp4_writer.h"
#include "app/media/palette.h"

namespace attn::media {

std::string find_ffmpeg() { return ""; }  // a page starts no programs

Result<std::unique_ptr<AnimationWriter>> open_gif(const std::string&, int, int) {
    return Result<std::unique_ptr<AnimationWriter>>::failure(Message("web.unavailable.gif"));
}

Result<std::unique_ptr<AnimationWriter>> open_mp4(const std::string&, int, int, int) {
    return Result<std::unique_ptr<AnimationWriter>>::failure(Message("web.unavailable.mp4"));
}

Status write_handout(const std::string&, const std::string&, const std::vector<HandoutPage>&, const HandoutWords&,
                     const std::string&) {
    return Status::failure(Message("web.unavailable.handout"));
}

}  // namespace attn::media
