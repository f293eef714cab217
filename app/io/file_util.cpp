#include "app/io/file_util.h"

#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>
#include <utility>

namespace attn::io {

namespace {

std::string size_text(uint64_t bytes) {
    char text[32];
    std::snprintf(text, sizeof text, "%.1f GiB", static_cast<double>(bytes) / (1024.0 * 1024 * 1024));
    return text;
}

// Closes the descriptor on every return path.
struct FileDescriptor {
    int fd;
    ~FileDescriptor() {
        if (fd >= 0) ::close(fd);
    }
};

}  // namespace

Result<std::string> read_file_bytes(const std::string& path, uint64_t max_bytes) {
    using R = Result<std::string>;
    // O_NONBLOCK: opening a named pipe must not wait for a writer; it is refused below.
    FileDescriptor file{::open(path.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC)};
    if (file.fd < 0) {
        if (errno == EISDIR) return R::failure(Message("error.file.folder", {{"path", path}}));
        return R::failure(Message("error.file.open", {{"path", path}, {"reason", std::strerror(errno)}}));
    }
    struct stat info {};
    if (::fstat(file.fd, &info) != 0) return R::failure(Message("error.file.read", {{"path", path}, {"reason", std::strerror(errno)}}));
    if (S_ISDIR(info.st_mode)) return R::failure(Message("error.file.folder", {{"path", path}}));
    // Devices (/dev/zero, /dev/urandom), pipes and sockets never end or block forever.
    if (!S_ISREG(info.st_mode))
        return R::failure(Message("error.file.not_regular", {{"path", path}}));
    const auto size = static_cast<uint64_t>(info.st_size);
    if (size > max_bytes)
        return R::failure(Message("error.file.too_large", {{"path", path}, {"size", size_text(size)}, {"max", size_text(max_bytes)}}));

    std::string bytes;
    bytes.resize(static_cast<size_t>(size));
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t got = ::read(file.fd, bytes.data() + done, bytes.size() - done);
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) return R::failure(Message("error.file.read", {{"path", path}, {"reason", std::strerror(errno)}}));
        if (got == 0) break;  // the file shrank while being read: keep what is there
        done += static_cast<size_t>(got);
    }
    bytes.resize(done);
    return bytes;
}

// Refuses targets that a rename would destroy or that cannot hold a file.
Status check_writable_target(const std::string& path) {
    struct stat info {};
    if (::stat(path.c_str(), &info) != 0) return ok_status();  // a new file
    if (S_ISDIR(info.st_mode)) return Status::failure(Message("error.file.folder", {{"path", path}}));
    if (!S_ISREG(info.st_mode)) return Status::failure(Message("error.file.not_regular", {{"path", path}}));
    return ok_status();
}

// "dir/.name.tmp-<pid>-<n>": hidden, in the target's folder (so rename() stays on one
// file system), unique per process and call.
std::string temporary_name_for(const std::string& path) {
    static std::atomic<unsigned> counter{0};
    const std::size_t slash = path.find_last_of('/');
    const std::string folder = slash == std::string::npos ? "" : path.substr(0, slash + 1);
    const std::string name = slash == std::string::npos ? path : path.substr(slash + 1);
    return folder + "." + name + ".tmp-" + std::to_string(::getpid()) + "-" + std::to_string(counter++);
}

namespace {

// Writes the whole of `bytes` to a new file `temporary`; removes it on any failure.
Status write_new_file(const std::string& temporary, const std::string& target, const std::string& bytes) {
    FileDescriptor file{::open(temporary.c_str(), O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0644)};
    if (file.fd < 0) return Status::failure(Message("error.file.write", {{"path", target}, {"reason", std::strerror(errno)}}));
    size_t done = 0;
    while (done < bytes.size()) {
        const ssize_t put = ::write(file.fd, bytes.data() + done, bytes.size() - done);
        if (put < 0 && errno == EINTR) continue;
        if (put <= 0) {
            ::unlink(temporary.c_str());
            return Status::failure(Message("error.file.write_full", {{"path", target}}));
        }
        done += static_cast<size_t>(put);
    }
    if (::close(file.fd) != 0) {
        file.fd = -1;
        ::unlink(temporary.c_str());
        return Status::failure(Message("error.file.write_full", {{"path", target}}));
    }
    file.fd = -1;
    return ok_status();
}

}  // namespace

Result<StagedFile> StagedFile::write(const std::string& target, const std::string& bytes) {
    using R = Result<StagedFile>;
    if (Status s = check_writable_target(target); !s) return R::failure(s.message());
    const std::string temporary = temporary_name_for(target);
    if (Status s = write_new_file(temporary, target, bytes); !s) return R::failure(s.message());
    return StagedFile(target, temporary);
}

StagedFile::StagedFile(std::string target, std::string temporary)
    : target_(std::move(target)), temporary_(std::move(temporary)) {}

StagedFile::StagedFile(StagedFile&& other) noexcept
    : target_(std::move(other.target_)), temporary_(std::exchange(other.temporary_, {})) {}

StagedFile::~StagedFile() {
    if (!temporary_.empty()) ::unlink(temporary_.c_str());
}

Status StagedFile::commit() {
    if (::rename(temporary_.c_str(), target_.c_str()) != 0) {
        const int error = errno;
        ::unlink(temporary_.c_str());
        temporary_.clear();
        return Status::failure(Message("error.file.write", {{"path", target_}, {"reason", std::strerror(error)}}));
    }
    temporary_.clear();
    return ok_status();
}

Status write_file_bytes(const std::string& path, const std::string& bytes) {
    Result<StagedFile> staged = StagedFile::write(path, bytes);
    if (!staged) return Status::failure(staged.message());
    return staged->commit();
}

}  // namespace attn::io
