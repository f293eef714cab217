#include "app/media/gif_writer.h"

#include <fcntl.h>
#include <gif_lib.h>
#include <unistd.h>

#include <cmath>
#include <cstring>
#include <vector>

#include "app/io/file_util.h"
#include "app/media/palette.h"

namespace attn::media {

namespace {

// The bounding box of the pixels where two frames differ (width 0 when equal).
struct Rect {
    int x = 0, y = 0, width = 0, height = 0;
};

Rect changed_rect(const std::vector<unsigned char>& a, const std::vector<unsigned char>& b, int width, int height) {
    int top = height, bottom = -1, left = width, right = -1;
    const size_t row_bytes = static_cast<size_t>(width) * 4;
    for (int y = 0; y < height; ++y) {
        const unsigned char* ra = a.data() + y * row_bytes;
        const unsigned char* rb = b.data() + y * row_bytes;
        if (std::memcmp(ra, rb, row_bytes) == 0) continue;
        top = std::min(top, y);
        bottom = y;
        int l = 0, r = width - 1;
        while (std::memcmp(ra + l * 4, rb + l * 4, 4) == 0) ++l;
        while (std::memcmp(ra + r * 4, rb + r * 4, 4) == 0) --r;
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
        Rect rect{0, 0, width_, height_};
        if (!shown_.empty()) rect = changed_rect(shown_, pending_, width_, height_);
        if (rect.width == 0) rect = {0, 0, 1, 1};  // equal to the frame before: keep only its delay
        const Status s = put_image(rect, static_cast<int>(delay));
        shown_.swap(pending_);
        pending_.clear();
        return s;
    }

    Status put_image(const Rect& rect, int delay_cs) {
        GraphicsControlBlock control{};
        control.DisposalMode = DISPOSE_DO_NOT;
        control.DelayTime = delay_cs;
        control.TransparentColor = NO_TRANSPARENT_COLOR;
        GifByteType extension[4];
        EGifGCBToExtension(&control, extension);
        if (EGifPutExtension(gif_, GRAPHICS_EXT_FUNC_CODE, 4, extension) != GIF_OK) return failure(gif_->Error);
        ++images_;

        const IndexedImage image = quantize(RgbaRegion{pending_.data(), width_, rect.x, rect.y, rect.width, rect.height});
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

    std::string path_, temporary_;
    GifFileType* gif_ = nullptr;
    int width_ = 0, height_ = 0;
    std::vector<unsigned char> pending_, shown_;  // RGBA: the waiting frame, the last one written
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
