#include "app/media/gif_writer.h"

#include <fcntl.h>
#include <gif_lib.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <algorithm>
#include <cstring>
#include <vector>

#include "app/io/file_util.h"
#include "app/media/palette.h"

namespace attn::media {

namespace {

// While the picture moves, a pixel closer than kMovingLevels (in every channel, of 255) to
// the colour it was last sent as is left as it is: a colour fading over a second moves a
// few levels a frame, and sending each of those steps made the head-split lesson's GIF
// 7 MB. The lag never accumulates (what the viewer shows stays within it of the frame's
// own, but for the palette). A moving frame, shown a 20th of a second, also takes a
// coarser palette (libimagequant's quality kMovingQuality: fewer colours where the
// picture allows, so fewer distinct indices for LZW). A frame that is held (kHeldSeconds
// or longer: a step's end, a slide) sends every pixel whose colour changed at all or
// whose shown palette colour is more than kHeldError off, with a full palette: every
// picture that stays on screen is the drawn one but for a 256-colour palette.
//
// Pixels are compared with the colour they were drawn in when last sent, not with the
// palette colour the viewer shows: a frame of more than 256 colours is never exact after
// quantising, and comparing with the palette colour sent again, on every frame, each pixel
// whose palette colour was more than the lag off (text edges, the colour scale), and every
// held frame nearly the whole screen.
//
// The head-split lesson at 1024x768 (8 slides, 24.7 s): 4.9 MB at 30 frames a second with
// a 12-level lag and full palettes compared with the shown colours; 2.9 MB at 20 frames a
// second with these (measured in issue 32; README, `attnviz snapshot --animate`).
constexpr int kMovingLevels = 24;
constexpr int kMovingQuality = 70;
constexpr int kHeldError = 8;
constexpr double kHeldSeconds = 0.25;

// The bounding box of the pixels where two frames differ (width 0 when equal).
struct Rect {
    int x = 0, y = 0, width = 0, height = 0;
};

// True when RGBA pixel `now` is within `levels` of RGB pixel `sent`.
bool looks_same(const unsigned char* now, const unsigned char* sent, int levels) {
    return std::abs(int{now[0]} - sent[0]) <= levels && std::abs(int{now[1]} - sent[1]) <= levels &&
           std::abs(int{now[2]} - sent[2]) <= levels;
}

// The box round the pixels (x, y) of a width x height frame for which `kept` is false,
// width 0 when there are none.
template <typename Kept>
Rect changed_rect(int width, int height, const Kept& kept) {
    int top = height, bottom = -1, left = width, right = -1;
    for (int y = 0; y < height; ++y) {
        int l = 0, r = width - 1;
        while (l < width && kept(static_cast<size_t>(y) * width + l)) ++l;
        if (l == width) continue;
        while (kept(static_cast<size_t>(y) * width + r)) --r;
        top = std::min(top, y);
        bottom = y;
        left = std::min(left, l);
        right = std::max(right, r);
    }
    if (bottom < 0) return {};
    return {left, top, right - left + 1, bottom - top + 1};
}

class GifWriter final : public AnimationWriter {
public:
    GifWriter(std::string path, std::string temporary, GifFileType* gif, int width, int height)
        : path_(std::move(path)), temporary_(std::move(temporary)), gif_(gif), width_(width), height_(height) {}
    ~GifWriter() override {
        if (gif_ != nullptr) EGifCloseFile(gif_, nullptr);
        if (!temporary_.empty()) ::unlink(temporary_.c_str());
    }

    // A frame waits until the next different one arrives, so equal frames add up to one
    // delay; the delays are the rounded clock times, so rounding never accumulates.
    Status add_frame(const unsigned char* rgba, double seconds) override {
        const size_t bytes = static_cast<size_t>(width_) * height_ * 4;
        if (!pending_.empty() && std::memcmp(pending_.data(), rgba, bytes) == 0) {
            pending_seconds_ += seconds;
            return ok_status();
        }
        if (Status s = flush(); !s) return s;
        pending_.assign(rgba, rgba + bytes);
        pending_seconds_ = seconds;
        return ok_status();
    }

    Status finish() override {
        if (Status s = flush(); !s) return s;
        int error = 0;
        const int closed = EGifCloseFile(gif_, &error);
        gif_ = nullptr;
        if (closed != GIF_OK) return failure(error);
        if (::rename(temporary_.c_str(), path_.c_str()) != 0)
            return Status::failure(Message("error.file.write", {{"path", path_}, {"reason", std::strerror(errno)}}));
        temporary_.clear();
        return ok_status();
    }

    int frames_written() const override { return images_; }

private:
    Status failure(int gif_error) const {
        const char* reason = GifErrorString(gif_error);
        return Status::failure(Message("error.file.write", {{"path", path_}, {"reason", reason ? reason : "giflib"}}));
    }

    Status flush() {
        if (pending_.empty()) return ok_status();
        const long end_cs = std::lround((clock_ + pending_seconds_) * 100.0);
        const long delay = std::min(65535L, std::max(2L, end_cs - std::lround(clock_ * 100.0)));
        clock_ += pending_seconds_;
        held_ = pending_seconds_ >= kHeldSeconds;
        Rect rect{0, 0, width_, height_};
        if (!sent_.empty()) rect = changed_rect(width_, height_, [this](size_t at) { return kept(at); });
        if (rect.width == 0) rect = {0, 0, 1, 1};  // looks like the frame before: keep only its delay
        const Status s = put_image(rect, static_cast<int>(delay));
        pending_.clear();
        return s;
    }

    // The changed rectangle of the waiting frame. Inside it, a pixel that looks like the one
    // sent before takes the transparent index, so the viewer keeps it: long runs of one
    // index, which LZW packs into little (a fading cell, a growing bar).
    Status put_image(const Rect& rect, int delay_cs) {
        const bool keep_unchanged = !sent_.empty();
        std::vector<bool> kept;
        const std::vector<unsigned char> pixels = pixels_to_send(rect, kept);
        IndexedImage image = quantize(RgbaRegion{pixels.data(), rect.width, 0, 0, rect.width, rect.height}, keep_unchanged ? 255 : 256,
                                      held_ || !keep_unchanged ? 100 : kMovingQuality);
        if (image.palette.empty()) return failure(E_GIF_ERR_NOT_ENOUGH_MEM);
        const int transparent = keep_unchanged ? static_cast<int>(image.palette.size()) : NO_TRANSPARENT_COLOR;
        if (!keep_unchanged) sent_.assign(static_cast<size_t>(width_) * height_ * 3, 0);
        if (!keep_unchanged) shown_.assign(static_cast<size_t>(width_) * height_ * 3, 0);
        update_sent(rect, image, kept, transparent);
        if (keep_unchanged) image.palette.push_back({0, 0, 0});
        GraphicsControlBlock control{};
        control.DisposalMode = DISPOSE_DO_NOT;
        control.DelayTime = delay_cs;
        control.TransparentColor = transparent;
        GifByteType extension[4];
        EGifGCBToExtension(&control, extension);
        if (EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, 4, extension) != GIF_OK) return failure(gif_->Error);
        ++images_;

        std::vector<GifColorType> colours(static_cast<size_t>(1) << GifBitSize(static_cast<int>(image.palette.size())));
        for (size_t i = 0; i < image.palette.size(); ++i) colours[i] = {image.palette[i][0], image.palette[i][1], image.palette[i][2]};
        ColorMapObject* map = GifMakeMapObject(static_cast<int>(colours.size()), colours.data());
        if (map == nullptr) return failure(E_GIF_ERR_NOT_ENOUGH_MEM);
        const bool put = EGifPutImageDesc(gif_, rect.x, rect.y, rect.width, rect.height, false, map) == GIF_OK;
        GifFreeMapObject(map);
        if (!put) return failure(gif_->Error);
        std::vector<GifPixelType> row(static_cast<size_t>(rect.width));
        for (int y = 0; y < rect.height; ++y) {
            const uint8_t* line = image.indices.data() + static_cast<size_t>(y) * rect.width;
            row.assign(line, line + rect.width);
            if (EGifPutLine(gif_, row.data(), rect.width) != GIF_OK) return failure(gif_->Error);
        }
        return ok_status();
    }

    // True when the viewer may keep pixel `at` (y * width + x) of the waiting frame as it is:
    // while the picture moves, when its colour is within kMovingLevels of the one it was last
    // sent as; when held, when it is that very colour and the viewer shows it within
    // kHeldError (a moving frame's palette may have been coarser).
    bool kept(size_t at) const {
        const unsigned char* now = pending_.data() + at * 4;
        if (!held_) return looks_same(now, sent_.data() + at * 3, kMovingLevels);
        return looks_same(now, sent_.data() + at * 3, 0) && looks_same(now, shown_.data() + at * 3, kHeldError);
    }

    // The rectangle's pixels (RGBA, rect.width x rect.height, row by row); `kept` says which
    // look like the ones sent before (the viewer keeps them). A kept pixel is replaced by the
    // pixel before it, so the palette serves only the pixels sent: the moving text of a frame
    // gets all 255 colours, and a frame whose sent pixels have at most 255 is exact.
    std::vector<unsigned char> pixels_to_send(const Rect& rect, std::vector<bool>& kept) const {
        std::vector<unsigned char> out(static_cast<size_t>(rect.width) * rect.height * 4);
        kept.assign(static_cast<size_t>(rect.width) * rect.height, false);
        const unsigned char* fill = nullptr;  // the last pixel sent, in scan order
        for (int y = 0; y < rect.height; ++y) {
            const size_t start = static_cast<size_t>(rect.y + y) * width_ + rect.x;
            for (int x = 0; x < rect.width; ++x) {
                const unsigned char* now = pending_.data() + (start + x) * 4;
                const size_t at = static_cast<size_t>(y) * rect.width + x;
                kept[at] = !sent_.empty() && this->kept(start + x);
                if (!kept[at]) fill = now;
                std::copy(kept[at] && fill ? fill : now, (kept[at] && fill ? fill : now) + 4, out.begin() + static_cast<long>(at * 4));
            }
        }
        return out;
    }

    // In the rectangle: a kept pixel becomes `transparent` (when there is one); every other
    // pixel is sent (the viewer shows its palette colour) and its drawn colour remembered.
    void update_sent(const Rect& rect, IndexedImage& image, const std::vector<bool>& kept, int transparent) {
        for (int y = 0; y < rect.height; ++y) {
            const size_t start = static_cast<size_t>(rect.y + y) * width_ + rect.x;
            const unsigned char* now = pending_.data() + start * 4;
            unsigned char* sent = sent_.data() + start * 3;
            unsigned char* shown = shown_.data() + start * 3;
            uint8_t* line = image.indices.data() + static_cast<size_t>(y) * rect.width;
            for (int x = 0; x < rect.width; ++x, now += 4, sent += 3, shown += 3) {
                if (transparent != NO_TRANSPARENT_COLOR && kept[static_cast<size_t>(y) * rect.width + x]) {
                    line[x] = static_cast<uint8_t>(transparent);
                    continue;
                }
                const Rgb8& c = image.palette[line[x]];
                sent[0] = now[0], sent[1] = now[1], sent[2] = now[2];
                shown[0] = c[0], shown[1] = c[1], shown[2] = c[2];
            }
        }
    }

    std::string path_, temporary_;
    GifFileType* gif_ = nullptr;
    int width_ = 0, height_ = 0;
    std::vector<unsigned char> pending_;  // RGBA: the waiting frame
    std::vector<unsigned char> sent_;     // RGB: the drawn colour each pixel was last sent as
    std::vector<unsigned char> shown_;    // RGB: what the viewer shows (the palette colours sent)
    bool held_ = false;                   // the waiting frame stays on screen kHeldSeconds or longer
    double pending_seconds_ = 0;
    double clock_ = 0;  // seconds of the frames written
    int images_ = 0;
};

// Loops forever: the NETSCAPE2.0 application extension.
bool put_loop_forever(GifFileType* gif) {
    static const unsigned char kNetscape[] = "NETSCAPE2.0";
    const unsigned char loop[3] = {1, 0, 0};  // sub-block 1, count 0 = forever
    return EGifPutExtensionLeader(gif, APPLICATION_EXT_FUNC_CODE) == GIF_OK &&
           EGifPutExtensionBlock(gif, 11, kNetscape) == GIF_OK && EGifPutExtensionBlock(gif, 3, loop) == GIF_OK &&
           EGifPutExtensionTrailer(gif) == GIF_OK;
}

}  // namespace

Result<std::unique_ptr<AnimationWriter>> open_gif(const std::string& path, int width, int height) {
    using R = Result<std::unique_ptr<AnimationWriter>>;
    if (Status s = io::check_writable_target(path); !s) return R::failure(s.message());
    const std::string temporary = io::temporary_name_for(path);
    // Opened here rather than by giflib, which would create it readable by its owner only.
    const int fd = ::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644);
    if (fd < 0) return R::failure(Message("error.file.write", {{"path", path}, {"reason", std::strerror(errno)}}));
    int error = 0;
    GifFileType* gif = EGifOpenFileHandle(fd, &error);  // closes fd from now on
    if (gif == nullptr) {
        ::close(fd);
        ::unlink(temporary.c_str());
        const char* reason = GifErrorString(error);
        return R::failure(Message("error.file.write", {{"path", path}, {"reason", reason ? reason : "giflib"}}));
    }
    auto writer = std::make_unique<GifWriter>(path, temporary, gif, width, height);
    EGifSetGifVersion(gif, true);  // GIF89a: delays and the loop extension
    if (EGifPutScreenDesc(gif, width, height, 8, 0, nullptr) != GIF_OK || !put_loop_forever(gif)) {
        const char* reason = GifErrorString(gif->Error);
        return R::failure(Message("error.file.write", {{"path", path}, {"reason", reason ? reason : "giflib"}}));
    }
    return R(std::move(writer));
}

}  // namespace attn::media
