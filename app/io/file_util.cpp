#include "app/io/file_util.h"

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fcntl.h>
#include <fstream>
#include <sys/stat.h>
#include <unistd.h>

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

Status write_file_bytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    if (!out) return Status::failure(Message("error.file.write", {{"path", path}, {"reason", std::strerror(errno)}}));
    out.write(bytes.data(), static_cast<std::streamsize>(bytes.size()));
    out.close();
    if (!out) return Status::failure(Message("error.file.write_full", {{"path", path}}));
    return ok_status();
}

}  // namespace attn::io
