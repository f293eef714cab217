// The browser build's side of attnviz_media (app/media/CMakeLists.txt): the desktop's
// MP4 (the ffmpeg program) and PDF handout (cairo + pango) writers have no WebAssembly
// build here, so each says so, in the window's language, where the user asked for it.
// The interfaces are the desktop's, unchanged. (GIF is the desktop's gif_writer.cpp.)
#include "app/media/handout_pdf.h"
#include "app/media/mp4_writer.h"

namespace attn::media {

std::string find_ffmpeg() { return ""; }  // a page starts no programs

Message mp4_unavailable() { return Message("web.unavailable.mp4"); }

Result<std::unique_ptr<AnimationWriter>> open_mp4(const std::string&, int, int, int) {
    return Result<std::unique_ptr<AnimationWriter>>::failure(mp4_unavailable());
}

Status write_handout(const std::string&, const std::string&, const std::vector<HandoutPage>&, const HandoutWords&,
                     const std::string&) {
    return Status::failure(Message("web.unavailable.handout"));
}

}  // namespace attn::media
