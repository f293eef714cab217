#include "app/media/gif_writer.h"

#include <fcntl.h>
#include <gif_lib.h>
#include <unistd.h>

#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "app/io/file_util.h"
#include "app/media/palette.h"

namespace attn::media {

namespace {

// While the picture moves, a pixel closer than this (in every channel, of 255) to what the
// viewer already shows is left as it is: a colour fading over a second moves a few levels
// a frame, and sending each of those steps made the head-split lesson's GIF 7 MB. The lag
// never accumulates (the shown pixel stays within it of the frame's own), and a frame that
// is held (kHeldSeconds or longer: a step's end, a slide) is sent exactly, so every picture
// that stays on screen is the drawn one.
constexpr int kMovingLevels = 12;
constexpr double kHeldSeconds = 0.25;

// The bounding box of the pixels where two frames differ (width 0 when equal).
struct Rect {
    int x = 0, y = 0, width = 0, height = 0;
};

// True when RGBA pixel `now` is within `levels` of RGB pixel `shown`.
bool looks_same(const unsigned char* now, const unsigned char* shown, int levels) {
    return std::abs(int{now[0]} - shown[0]) <= levels && std::abs(int{now[1]} - shown[1]) <= levels &&
           std::abs(int{now[2]} - shown[2]) <= levels;
}

// The box round the pixels of `rgba` that do not look like `shown` (RGB, what the viewer
// shows), width 0 when none.
Rect changed_rect(const std::vector<unsigned char>& rgba, const std::vector<unsigned char>& shown, int width, int height,
                  int levels) {
    int top = height, bottom = -1, left = width, right = -1;
    for (int y = 0; y < height; ++y) {
        const unsigned char* now = rgba.data() + static_cast<size_t>(y) * width * 4;
        const unsigned char* seen = shown.data() + static_cast<size_t>(y) * width * 3;
        int l = 0, r = width - 1;
        while (l < width && looks_same(now + l * 4, seen + l * 3, levels)) ++l;
        if (l == width) continue;
        while (looks_same(now + r * 4, seen + r * 3, levels)) --r;
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
        levels_ = pending_seconds_ >= kHeldSeconds ? 0 : kMovingLevels;
        Rect rect{0, 0, width_, height_};
        if (!shown_.empty()) rect = changed_rect(pending_, shown_, width_, height_, levels_);
        if (rect.width == 0) rect = {0, 0, 1, 1};  // looks like the frame before: keep only its delay
        const Status s = put_image(rect, static_cast<int>(delay));
        pending_.clear();
        return s;
    }

    // The changed rectangle of the waiting frame. Inside it, a pixel that looks like what
    // the viewer shows takes the transparent index, so the viewer keeps it: long runs of one
    // index, which LZW packs into little (a fading cell, a growing bar).
    Status put_image(const Rect& rect, int delay_cs) {
        const bool keep_unchanged = !shown_.empty();
        IndexedImage image = quantize(RgbaRegion{pending_.data(), width_, rect.x, rect.y, rect.width, rect.height},
                                      keep_unchanged ? 255 : 256);
        if (image.palette.empty()) return failure(E_GIF_ERR_NOT_ENOUGH_MEM);
        const int transparent = keep_unchanged ? static_cast<int>(image.palette.size()) : NO_TRANSPARENT_COLOR;
        if (!keep_unchanged) shown_.assign(static_cast<size_t>(width_) * height_ * 3, 0);
        update_shown(rect, image, transparent);
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

    // In the rectangle: a pixel of the waiting frame that looks like the shown one becomes
    // `transparent` (when there is one); every other pixel is shown in its palette colour.
    void update_shown(const Rect& rect, IndexedImage& image, int transparent) {
        for (int y = 0; y < rect.height; ++y) {
            const size_t start = static_cast<size_t>(rect.y + y) * width_ + rect.x;
            const unsigned char* now = pending_.data() + start * 4;
            unsigned char* seen = shown_.data() + start * 3;
            uint8_t* line = image.indices.data() + static_cast<size_t>(y) * rect.width;
            for (int x = 0; x < rect.width; ++x, now += 4, seen += 3) {
                if (transparent != NO_TRANSPARENT_COLOR && looks_same(now, seen, levels_)) {
                    line[x] = static_cast<uint8_t>(transparent);
                    continue;
                }
                const Rgb8& c = image.palette[line[x]];
                seen[0] = c[0], seen[1] = c[1], seen[2] = c[2];
            }
        }
    }

    std::string path_, temporary_;
    GifFileType* gif_ = nullptr;
    int width_ = 0, height_ = 0;
    std::vector<unsigned char> pending_;  // RGBA: the waiting frame
    std::vector<unsigned char> shown_;    // RGB: what the viewer shows after the frames written
    int levels_ = 0;                      // this frame's "looks the same": kMovingLevels, or 0 when held
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
