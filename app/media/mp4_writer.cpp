#include "app/media/mp4_writer.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cmath>
#include <cstdlib>
#include <cstring>
#include <vector>

#include "app/io/file_util.h"

extern char** environ;

namespace attn::media {

namespace {

// ffmpeg's own words for a failure: the last line it wrote on stderr.
std::string last_line_of(const std::string& path) {
    Result<std::string> text = io::read_file_bytes(path, 1 << 20);
    if (!text) return "";
    std::string s = text.value();
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r')) s.pop_back();
    const size_t newline = s.find_last_of('\n');
    return newline == std::string::npos ? s : s.substr(newline + 1);
}

class Mp4Writer final : public AnimationWriter {
public:
    Mp4Writer(std::string path, std::string temporary, int width, int height, int fps)
        : path_(std::move(path)), temporary_(std::move(temporary)), log_(temporary_ + ".log"), width_(width),
          height_(height), fps_(fps) {
        // A pipe whose reader died must give EPIPE, not end the program.
        struct sigaction ignore {};
        ignore.sa_handler = SIG_IGN;
        sigaction(SIGPIPE, &ignore, &previous_sigpipe_);
    }
    ~Mp4Writer() override {
        if (pid_ > 0) {  // unfinished (cancelled or failed): stop ffmpeg, keep nothing
            close_pipe();
            ::kill(pid_, SIGKILL);
            ::waitpid(pid_, nullptr, 0);
        }
        close_pipe();
        if (!temporary_.empty()) ::unlink(temporary_.c_str());
        ::unlink(log_.c_str());
        sigaction(SIGPIPE, &previous_sigpipe_, nullptr);
    }

    Status start(const std::string& ffmpeg) {
        const std::string size = std::to_string(width_) + "x" + std::to_string(height_);
        const std::string rate = std::to_string(fps_);
        const std::vector<std::string> args = {
            ffmpeg, "-hide_banner", "-loglevel", "error", "-nostdin", "-f", "rawvideo", "-pix_fmt", "rgba", "-s", size,
            "-framerate", rate, "-i", "pipe:0",
            // Even sizes for 4:2:0, converted with the HD matrix and tagged as such.
            "-vf", "pad=ceil(iw/2)*2:ceil(ih/2)*2,scale=out_color_matrix=bt709:out_range=tv,format=yuv420p",
            "-colorspace", "bt709", "-color_primaries", "bt709", "-color_trc", "bt709", "-c:v", "libx264", "-preset",
            "veryfast", "-crf", "20", "-movflags", "+faststart", "-f", "mp4", "-y", temporary_};
        std::vector<char*> argv;
        for (const std::string& a : args) argv.push_back(const_cast<char*>(a.c_str()));
        argv.push_back(nullptr);
        int pipe_fds[2];
        if (::pipe2(pipe_fds, O_CLOEXEC) != 0) return failure(std::strerror(errno));
        posix_spawn_file_actions_t actions;
        posix_spawn_file_actions_init(&actions);
        posix_spawn_file_actions_adddup2(&actions, pipe_fds[0], STDIN_FILENO);
        posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
        posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, log_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
        const int spawned = posix_spawn(&pid_, ffmpeg.c_str(), &actions, nullptr, argv.data(), environ);
        posix_spawn_file_actions_destroy(&actions);
        ::close(pipe_fds[0]);
        pipe_ = pipe_fds[1];
        if (spawned != 0) {
            pid_ = 0;
            return failure(std::strerror(spawned));
        }
        return ok_status();
    }

    // Each frame goes in as often as the clock, rounded to whole frames, asks.
    Status add_frame(const unsigned char* rgba, double seconds) override {
        const long repeats = std::lround((clock_ + seconds) * fps_) - std::lround(clock_ * fps_);
        clock_ += seconds;
        const size_t bytes = static_cast<size_t>(width_) * height_ * 4;
        for (long i = 0; i < repeats; ++i) {
            if (!write_all(rgba, bytes)) return finish_with_failure();
            ++frames_;
        }
        return ok_status();
    }

    Status finish() override {
        close_pipe();
        int status = 0;
        ::waitpid(pid_, &status, 0);
        pid_ = 0;
        const std::string reason = last_line_of(log_);
        ::unlink(log_.c_str());
        if (!WIFEXITED(status) || WEXITSTATUS(status) != 0) return failure(reason);
        if (::rename(temporary_.c_str(), path_.c_str()) != 0) return failure(std::strerror(errno));
        temporary_.clear();
        return ok_status();
    }

    int frames_written() const override { return frames_; }

private:
    Status failure(const std::string& reason) const {
        return Status::failure(Message("error.animation.ffmpeg", {{"path", path_}, {"reason", reason}}));
    }
    // The pipe broke: ffmpeg stopped, and said why on stderr.
    Status finish_with_failure() {
        close_pipe();
        ::waitpid(pid_, nullptr, 0);
        pid_ = 0;
        return failure(last_line_of(log_));
    }
    bool write_all(const unsigned char* data, size_t size) {
        while (size > 0) {
            const ssize_t put = ::write(pipe_, data, size);
            if (put < 0 && errno == EINTR) continue;
            if (put <= 0) return false;
            data += put;
            size -= static_cast<size_t>(put);
        }
        return true;
    }
    void close_pipe() {
        if (pipe_ >= 0) ::close(pipe_);
        pipe_ = -1;
    }

    std::string path_, temporary_, log_;
    int width_ = 0, height_ = 0, fps_ = 0;
    pid_t pid_ = 0;
    int pipe_ = -1;
    double clock_ = 0;
    int frames_ = 0;
    struct sigaction previous_sigpipe_ {};
};

}  // namespace

std::string find_ffmpeg() {
    const char* path = std::getenv("PATH");
    std::string dirs = path ? path : "/usr/local/bin:/usr/bin:/bin";
    size_t start = 0;
    while (start <= dirs.size()) {
        const size_t colon = std::min(dirs.find(':', start), dirs.size());
        const std::string dir = dirs.substr(start, colon - start);
        start = colon + 1;
        const std::string candidate = (dir.empty() ? "." : dir) + "/ffmpeg";
        struct stat info {};
        if (::stat(candidate.c_str(), &info) == 0 && S_ISREG(info.st_mode) && ::access(candidate.c_str(), X_OK) == 0)
            return candidate;
    }
    return "";
}

Message mp4_unavailable() { return Message("error.animation.no_ffmpeg"); }

Result<std::unique_ptr<AnimationWriter>> open_mp4(const std::string& path, int width, int height, int fps) {
    using R = Result<std::unique_ptr<AnimationWriter>>;
    const std::string ffmpeg = find_ffmpeg();
    if (ffmpeg.empty()) return R::failure(mp4_unavailable());
    if (Status s = io::check_writable_target(path); !s) return R::failure(s.message());
    auto writer = std::make_unique<Mp4Writer>(path, io::temporary_name_for(path), width, height, fps);
    if (Status s = writer->start(ffmpeg); !s) return R::failure(s.message());
    return R(std::move(writer));
}

}  // namespace attn::media
